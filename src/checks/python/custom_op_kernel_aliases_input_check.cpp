// SPDX-License-Identifier: MIT
// TM209: Python functions registered as custom-op kernels (by a registration call or decorator,
// or a registration method of an object such as a `Library` or a custom op) whose output
// shares storage with an input: a parameter returned as is, a view of one, the same tensor
// twice. Ops whose defined schema declares the alias are left alone.
#include "torchmigrate/checks/python_checks.hpp"

#include <cctype>
#include <map>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/returned_alias.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// Where a call takes an argument: a position and a keyword (empty when positional only).
struct Slot {
  size_t index = 0;
  std::string keyword;

  [[nodiscard]] Node in(const CallArguments& arguments) const {
    Node value = keyword.empty() ? Node() : arguments.keyword_value(keyword);
    if (!value && index < arguments.positional().size()) value = arguments.positional()[index];
    return value;
  }
};

Slot read_slot(const Params& params, const std::string& key) {
  Params slot = params.object(key);
  Slot out{slot.integer("index"), slot.has("keyword") ? slot.string("keyword") : std::string()};
  slot.finish();
  return out;
}

// A registration call: `function` takes the kernel (the decorated def when the call decorates
// one), `schema` a schema to define instead; `op` names the op.
struct Registrar {
  std::optional<Slot> function;
  std::optional<Slot> schema;
  std::optional<Slot> op;
};

Registrar read_registrar(const Params& params) {
  Registrar out;
  if (params.has("function")) out.function = read_slot(params, "function");
  if (params.has("schema")) out.schema = read_slot(params, "schema");
  if (params.has("op")) out.op = read_slot(params, "op");
  return out;
}

// `mylib::foo.default`, `torch.ops.mylib.foo.default` -> `foo`; a schema `foo(Tensor x) -> ...` -> `foo`.
std::string base_op_name(std::string name) {
  if (name.starts_with("torch.ops.")) {
    name = name.substr(std::string_view("torch.ops.").size());
    name = name.substr(name.find('.') == std::string::npos ? 0 : name.find('.') + 1);
  }
  if (size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return name.substr(0, name.find_first_of(".( "));
}

std::optional<std::string> op_name_of(Node argument) {
  argument = strip_parentheses(argument);
  if (!argument) return std::nullopt;
  if (std::optional<std::string> text = plain_string(argument)) return base_op_name(*text);
  if (argument.kind() == "attribute" && argument.text().starts_with("torch.ops.")) {
    return base_op_name(std::string(argument.text()));
  }
  return std::nullopt;
}

// The op a registration names; after a `Library` object in the op's place (the older
// `impl(lib, "foo", ...)` form), the next positional argument.
std::optional<std::string> op_name(const Slot& slot, const CallArguments& arguments) {
  if (std::optional<std::string> name = op_name_of(slot.in(arguments))) return name;
  if (slot.index + 1 >= arguments.positional().size()) return std::nullopt;
  return op_name_of(arguments.positional()[slot.index + 1]);
}

// True when the returns of `schema` carry an alias annotation: `-> Tensor(a)`, `-> Tensor(a!)`.
bool returns_declare_alias(std::string_view schema) {
  size_t arrow = schema.find("->");
  if (arrow == std::string_view::npos) return false;
  for (size_t i = arrow + 3; i + 1 < schema.size(); ++i) {
    bool after_type = std::isalnum(static_cast<unsigned char>(schema[i - 1])) != 0;
    if (schema[i] == '(' && after_type && std::islower(static_cast<unsigned char>(schema[i + 1])) != 0) return true;
  }
  return false;
}

Node mutated_root(Node expression) {
  expression = strip_parentheses(expression);
  while (expression && expression.kind() == "subscript") expression = strip_parentheses(expression.field("value"));
  return expression && expression.kind() == "identifier" ? expression : Node();
}

// The identifier an in-place statement or call modifies: `x.add_(...)`, `x[i].zero_()`,
// `x[...] = v`, `x += v`.
Node modified_by(Node node) {
  std::string_view kind = node.kind();
  if (kind == "call") {
    Node function = node.field("function");
    if (function.kind() != "attribute") return {};
    std::string_view method = function.field("attribute").text();
    if (method.size() < 2 || !method.ends_with('_') || method.ends_with("__")) return {};
    return mutated_root(function.field("object"));
  }
  if (kind != "assignment" && kind != "augmented_assignment") return {};
  Node left = node.field("left");
  if (left && left.kind() == "subscript") return mutated_root(left);
  return left && left.kind() == "identifier" && kind == "augmented_assignment" ? left : Node();
}

// Whether the def's own body modifies `name` in place before the offset `before`.
bool modified_in_place(Node function, std::string_view name, uint32_t before) {
  Node body = function.kind() == "function_definition" ? function.field("body") : Node();
  if (!body) return false;
  bool found = false;
  python::for_each_node(body, [&](Node node) {
    if (found || node.start() >= before) return python::WalkStep::Stop;
    std::string_view kind = node.kind();
    if (kind == "function_definition" || kind == "lambda" || kind == "class_definition") return python::WalkStep::Skip;
    Node target = modified_by(node);
    found = target && target.text() == name;
    return python::WalkStep::Enter;
  });
  return found;
}

// The first call in the def's own body, before the offset `before`, that is given `name` itself as
// an argument (`_set_buffer_donation(t, True)`): it may have marked that very tensor, which a
// copy would not carry.
Node passed_to_call(Node function, std::string_view name, uint32_t before) {
  Node body = function.kind() == "function_definition" ? function.field("body") : Node();
  Node found;
  if (!body) return found;
  python::for_each_node(body, [&](Node node) {
    if (found || node.start() >= before) return python::WalkStep::Stop;
    std::string_view kind = node.kind();
    if (kind == "function_definition" || kind == "lambda" || kind == "class_definition") return python::WalkStep::Skip;
    if (kind != "call") return python::WalkStep::Enter;
    python::for_each_named_child(node.field("arguments"), [&](Node argument) {
      if (argument.kind() == "keyword_argument") argument = argument.field("value");
      if (!found && argument && argument.kind() == "identifier" && argument.text() == name) found = node;
    });
    return python::WalkStep::Enter;
  });
  return found;
}

// The parameters a custom op declares it mutates (`mutates_args=("x",)`); `unknown` for "unknown".
struct Mutates {
  std::set<std::string, std::less<>> names;
  bool unknown = false;
};

struct Kernel {
  Node function;
  std::string registrar;          // as the message names it: `torch.library.impl`, `lib.impl`
  std::optional<std::string> op;  // the op's base name, when the registration spells it
  Node op_call;                   // the call that made the op (its `mutates_args`), if seen
};

class CustomOpKernelAliasesInputCheck final : public engine::PythonCheck {
 public:
  explicit CustomOpKernelAliasesInputCheck(const engine::RuleSpec& rule)
      : CustomOpKernelAliasesInputCheck(rule, Params(rule)) {}

  CustomOpKernelAliasesInputCheck(const engine::RuleSpec& rule, const Params& params)
      : PythonCheck(rule), matcher_(ReturnedAliasMatcher::from_params(params)) {
    for (const Params& entry : params.objects("registrars")) {
      Registrar registrar = read_registrar(entry);
      for (const std::string& callee : entry.strings("callees")) registrars_[callee] = registrar;
      entry.finish();
    }
    for (const Params& entry : params.objects("objects")) {
      std::map<std::string, Registrar, std::less<>> methods;
      for (const Params& method : entry.objects("methods")) {
        methods[method.string("name")] = read_registrar(method);
        method.finish();
      }
      for (const std::string& callee : entry.strings("callees")) object_callees_[callee] = objects_.size();
      objects_.push_back(std::move(methods));
      entry.finish();
    }
    mutates_keyword_ = params.string("mutates_keyword");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call", "decorated_definition"}; }

  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "decorated_definition") {
      note_decorated(node, context);
    } else if (context.parent().kind() != "decorator") {  // decorators go with their definition
      note_call(node, node, {}, context);
      note_applied_decorator(node, context);
    }
  }

  void finish(PythonCheckContext& context) override {
    std::set<uint32_t> done;
    for (const Kernel& kernel : kernels_) {
      if (kernel.op && aliased_ops_.count(*kernel.op)) continue;
      if (!done.insert(kernel.function.start()).second) continue;
      for (Node value : returned_values(kernel.function)) {
        for (const ReturnedAlias& alias : matcher_.find(value, kernel.function, context.model())) {
          report(alias, kernel, value, context);
        }
      }
    }
  }

 private:
  void note_decorated(Node definition, PythonCheckContext& context) {
    Node function = definition.field("definition");
    if (!function || function.kind() != "function_definition") return;
    for (Node expression : decorator_expressions(definition)) {
      // `@op.register_fake` takes the def itself; `@torch.library.impl(...)` returns what does.
      note_call(expression, expression.kind() == "call" ? expression.field("function") : expression, function, context);
    }
  }

  // A registration decorator applied by hand: `custom_op("ns::op", mutates_args=())(fn)`.
  void note_applied_decorator(Node call, PythonCheckContext& context) {
    Node decorator = call.field("function");
    if (decorator.kind() != "call") return;
    CallArguments arguments(call);
    if (!arguments.valid() || arguments.positional().empty()) return;
    if (Node function = function_argument(arguments.positional().front(), context.model())) {
      note_call(decorator, decorator, function, context);
    }
  }

  // `call` is a call or a decorator's bare reference; `callee` what it calls.
  void note_call(Node call, Node callee, Node decorated, PythonCheckContext& context) {
    if (call.kind() == "call") callee = call.field("function");
    std::string name;
    Node op_call;
    const Registrar* registrar = registrar_of(call, callee, context, name, op_call);
    if (registrar == nullptr) return;
    std::optional<CallArguments> arguments;
    if (call.kind() == "call") arguments.emplace(call);
    if (arguments && !arguments->valid()) return;
    if (registrar->schema) {
      if (arguments) note_schema(*registrar, *arguments);
      return;
    }
    if (!registrar->function) return;
    Node function = arguments ? function_argument(registrar->function->in(*arguments), context.model()) : Node();
    if (!function) function = decorated;
    if (!function) return;
    std::optional<std::string> op;
    if (arguments && registrar->op) op = op_name(*registrar->op, *arguments);
    kernels_.push_back({function, name, op, op_call});
  }

  // The registrar `call` (or a decorator's bare reference) uses, its name for the message and
  // the call that made its object, if any.
  const Registrar* registrar_of(Node call, Node callee, PythonCheckContext& context, std::string& name,
                                Node& op_call) const {
    std::optional<std::string> resolved =
        call.kind() == "call" ? context.model().resolve_call(call) : context.model().resolve(call);
    if (resolved) {
      auto found = registrars_.find(*resolved);
      if (found == registrars_.end()) return nullptr;
      name = *resolved;
      if (call.kind() == "call") op_call = call;  // `custom_op(..., mutates_args=...)` made the op here
      return &found->second;
    }
    if (callee.kind() != "attribute") return nullptr;
    std::string_view method = callee.field("attribute").text();
    std::optional<size_t> object = object_of(callee.field("object"), context, op_call);
    if (!object) return nullptr;
    auto found = objects_[*object].find(method);
    if (found == objects_[*object].end()) return nullptr;
    name = single_line(callee);
    return &found->second;
  }

  // Which kind of object `receiver` is: `lib` from `lib = Library(...)`, a def decorated with
  // `custom_op(...)`, `op = custom_op(...)(fn)`; `made_by` gets the call that made it.
  std::optional<size_t> object_of(Node receiver, PythonCheckContext& context, Node& made_by) const {
    receiver = strip_parentheses(receiver);
    if (!receiver) return std::nullopt;
    if (receiver.kind() == "call") return object_made_by(receiver, context, made_by);
    if (receiver.kind() != "identifier") return std::nullopt;
    const python::Binding* binding = context.model().lookup(receiver.text(), receiver);
    if (binding == nullptr || binding->kind != python::BindingKind::Local) return std::nullopt;
    Node node = binding->node;
    if (node.kind() == "assignment" && node.field("left").kind() == "identifier") {
      return object_made_by(strip_parentheses(node.field("right")), context, made_by);
    }
    Node definition = node.kind() == "function_definition" ? node.parent() : Node();
    if (!definition || definition.kind() != "decorated_definition") return std::nullopt;
    for (Node expression : decorator_expressions(definition)) {
      if (auto object = object_made_by(expression, context, made_by)) return object;
    }
    return std::nullopt;
  }

  // `Library(...)`, `custom_op(...)`, `custom_op(...)(fn)`.
  std::optional<size_t> object_made_by(Node call, PythonCheckContext& context, Node& made_by) const {
    if (!call || call.kind() != "call") return std::nullopt;
    if (std::optional<std::string> callee = context.model().resolve_call(call)) {
      auto found = object_callees_.find(*callee);
      if (found == object_callees_.end()) return std::nullopt;
      made_by = call;
      return found->second;
    }
    return object_made_by(call.field("function"), context, made_by);
  }

  // `define("mylib::foo", "(Tensor(a) x) -> Tensor(a)")`, `lib.define("foo(Tensor(a) x) -> Tensor(a)")`.
  void note_schema(const Registrar& registrar, const CallArguments& arguments) {
    std::optional<std::string> schema = plain_string(strip_parentheses(registrar.schema->in(arguments)));
    if (!schema || !returns_declare_alias(*schema)) return;
    std::optional<std::string> op = registrar.op ? op_name(*registrar.op, arguments) : std::nullopt;
    if (!op) op = base_op_name(*schema);  // `lib.define("foo(Tensor(a) x) -> Tensor(a)")`
    if (!op->empty()) aliased_ops_.insert(*op);
  }

  void report(const ReturnedAlias& alias, const Kernel& kernel, Node value, PythonCheckContext& context) const {
    std::string function =
        kernel.function.kind() == "lambda" ? "lambda" : std::string(kernel.function.field("name").text());
    Diagnostic& diagnostic =
        context.report(rule(), alias.expression.range(),
                       {{"function", function}, {"registrar", kernel.registrar}, {"problem", alias.problem()}});
    std::string why = alias.kind == ReturnedAlias::Kind::Twice
                          ? std::string()
                          : why_mutated(kernel, alias.parameter.text(), value.start());
    if (!why.empty()) {
      why.append(why.ends_with(", or") ? " " : ": ");
      why.append(
          "split the op into an in-place op that returns nothing and an out-of-place op that returns a new tensor");
      Fix fix = rule_fix(rule(), std::move(why), {}, Applicability::DisplayOnly);
      fix.applicability = Applicability::DisplayOnly;  // advice with no edit, whatever the catalog's safety
      diagnostic.fixes.push_back(std::move(fix));
      return;
    }
    std::string title("Return `");
    title.append(alias.expression.text()).append(".clone()`");
    Fix fix =
        rule_fix(rule(), std::move(title), {Edit::insert(alias.expression.end(), ".clone()")}, Applicability::Safe);
    if (alias.kind != ReturnedAlias::Kind::Twice) {
      if (Node call = passed_to_call(kernel.function, alias.parameter.text(), value.start())) {
        fix.applicability = least_safe(fix.applicability, Applicability::Unsafe);
        fix.title.append(" (the kernel passes `")
            .append(alias.parameter.text())
            .append("` to `")
            .append(call.field("function").text())
            .append("` first; a copy does not carry what that call did to it)");
      }
    }
    diagnostic.fixes.push_back(std::move(fix));
  }

  // Why the kernel may modify `name` (declared in `mutates_args`, or modified in place before the
  // offset `before`), or "".
  std::string why_mutated(const Kernel& kernel, std::string_view name, uint32_t before) const {
    Mutates declared = declared_mutates(kernel.op_call);
    std::string out;
    if (declared.unknown) {
      out.append("The op declares `").append(mutates_keyword_).append("=\"unknown\"`, so `").append(name);
      out.append("` may be modified");
    } else if (declared.names.count(name)) {
      out.append("The op lists `").append(name).append("` in `").append(mutates_keyword_).append("`");
    } else if (modified_in_place(kernel.function, name, before)) {
      out.append("`").append(name).append("` is modified in place before it is returned");
    } else if (kernel.op && kernel.op->ends_with('_') && !kernel.op->ends_with("__")) {
      out.append("`").append(*kernel.op).append("` is named as an in-place op, which returns its input: declare the ");
      out.append("alias in the op's schema (`Tensor(a!) ").append(name).append(" -> Tensor(a!)`), or");
    }
    return out;
  }

  Mutates declared_mutates(Node call) const {
    Mutates out;
    if (!call) return out;
    CallArguments arguments(call);
    Node value = strip_parentheses(arguments.valid() ? arguments.keyword_value(mutates_keyword_) : Node());
    if (!value) return out;
    if (std::optional<std::string> text = plain_string(value)) {
      out.unknown = *text == "unknown";
      out.names.insert(*text);
      return out;
    }
    python::for_each_named_child(value, [&](Node element) {
      if (std::optional<std::string> text = plain_string(element)) out.names.insert(*text);
    });
    return out;
  }

  std::map<std::string, Registrar, std::less<>> registrars_;
  std::map<std::string, size_t, std::less<>> object_callees_;
  std::vector<std::map<std::string, Registrar, std::less<>>> objects_;
  std::string mutates_keyword_;
  ReturnedAliasMatcher matcher_;
  std::vector<Kernel> kernels_;
  std::set<std::string, std::less<>> aliased_ops_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_custom_op_kernel_aliases_input_check(const engine::RuleSpec& rule) {
  return std::make_unique<CustomOpKernelAliasesInputCheck>(rule);
}

}  // namespace torchmigrate::checks
