// SPDX-License-Identifier: MIT
// Family `base-init-arguments`: a torch base class whose constructor was removed, so that
// passing it arguments reaches `object.__init__` and raises TypeError (TM125: `Sampler`).
// Reported: `super().__init__(args)` / `super(Cls, self).__init__(args)` in a class whose first
// base is the torch class (directly, or through classes of the same file that define no
// `__init__`), and `Base.__init__(self, args)` anywhere, unless a `try` around it handles the
// TypeError. Fix: drop the arguments.
#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// Classes of the same file between a subclass and the torch class are followed this far.
constexpr int kMaxBaseDepth = 8;

// Whether `node` or anything inside it is a call: dropping it would drop a side effect.
bool contains_call(Node node) {
  if (node.kind() == "call") return true;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    if (contains_call(node.named_child(i))) return true;
  }
  return false;
}

// The class whose body defines `method` directly (possibly under decorators).
Node class_of(Node method) {
  Node parent = method.parent();
  if (parent && parent.kind() == "decorated_definition") parent = parent.parent();
  if (!parent || parent.kind() != "block") return {};
  Node klass = parent.parent();
  return klass && klass.kind() == "class_definition" ? klass : Node();
}

// Whether the class body defines `__init__`.
bool defines_init(Node klass) {
  Node body = klass.field("body");
  for (uint32_t i = 0; body && i < body.named_child_count(); ++i) {
    Node statement = body.named_child(i);
    if (statement.kind() == "decorated_definition") statement = statement.field("definition");
    if (statement.kind() == "function_definition" && statement.field("name").text() == "__init__") return true;
  }
  return false;
}

// Whether `node` lies in the body of a `try` with a handler for TypeError (bare, `TypeError`,
// `Exception`): code written for both signatures.
bool handles_type_error(Node node) {
  for (Node child = node, parent = node.parent(); parent; child = parent, parent = parent.parent()) {
    if (parent.kind() == "function_definition" || parent.kind() == "class_definition") return false;
    if (parent.kind() != "try_statement" || !(parent.field("body") == child)) continue;
    for (uint32_t i = 0; i < parent.named_child_count(); ++i) {
      Node clause = parent.named_child(i);
      if (clause.kind() != "except_clause") continue;
      Node body = clause.named_child(clause.named_child_count() - 1);
      std::string_view caught = clause.source().substr(clause.start(), body.start() - clause.start());
      if (clause.named_child_count() == 1 || caught.find("TypeError") != std::string_view::npos ||
          caught.find("Exception") != std::string_view::npos) {
        return true;
      }
    }
  }
  return false;
}

class BaseInitArgumentsCheck final : public engine::PythonCheck {
 public:
  explicit BaseInitArgumentsCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& base : params.strings("bases")) bases_.insert(base);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    Node function = call.field("function");
    if (function.kind() != "attribute" || function.field("attribute").text() != "__init__") return;
    Node receiver = function.field("object");
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    std::vector<Node> passed = all_arguments(arguments.list());
    std::optional<std::string> base;
    uint32_t keep_until = arguments.list().start() + 1;  // the dropped text starts here
    if (receiver.kind() == "call" && is_builtin(context.model(), receiver.field("function"), "super")) {
      Node method = enclosing_function(call);
      Node klass = method && method.kind() == "function_definition" ? class_of(method) : Node();
      if (klass) base = first_base_reaching(klass, context, kMaxBaseDepth);
    } else {
      // `Sampler.__init__(self, data_source)`: the first argument is the instance.
      base = torch_base(receiver, context);
      if (!passed.empty()) {
        keep_until = passed.front().end();
        passed.erase(passed.begin());
      }
    }
    if (!base || passed.empty() || handles_type_error(call)) return;
    // A comment before the first dropped argument stays; one after it would go with the arguments.
    bool drops_comment = false;
    Node list = arguments.list();
    for (uint32_t i = 0; i < list.named_child_count(); ++i) {
      Node comment = list.named_child(i);
      if (comment.kind() != "comment") continue;
      if (comment.start() < passed.front().start()) {
        keep_until = std::max(keep_until, comment.end());
      } else {
        drops_comment = true;
      }
    }
    // After a kept comment, the line break before `)` stays too.
    uint32_t drop_until = list.end() - 1;
    if (keep_until > list.start() + 1) {
      size_t line_break = list.source().rfind('\n', drop_until);
      if (line_break != std::string_view::npos && line_break > keep_until)
        drop_until = static_cast<uint32_t>(line_break);
    }
    report(call, Edit::remove({keep_until, drop_until}), passed, *base, drops_comment, context);
  }

 private:
  static std::vector<Node> all_arguments(Node list) {
    std::vector<Node> nodes;
    for (uint32_t i = 0; i < list.named_child_count(); ++i) {
      if (list.named_child(i).kind() != "comment") nodes.push_back(list.named_child(i));
    }
    return nodes;
  }

  // The torch class `expression` names (`Sampler`, `data.Sampler`, `Sampler[int]`), if one of `bases_`.
  std::optional<std::string> torch_base(Node expression, PythonCheckContext& context) const {
    if (expression.kind() == "subscript") expression = expression.field("value");
    if (expression.kind() != "identifier" && expression.kind() != "attribute") return std::nullopt;
    std::optional<std::string> resolved = context.model().resolve(expression);
    if (resolved && bases_.contains(*resolved)) return resolved;
    return std::nullopt;
  }

  // The torch class that `super().__init__` in `klass` reaches: its first base (the next class
  // in the method resolution order), or a class of this file that defines no `__init__` and
  // reaches it in turn. `Generic[...]` and keyword arguments (`metaclass=`) are skipped.
  std::optional<std::string> first_base_reaching(Node klass, PythonCheckContext& context, int depth) const {
    Node superclasses = klass.field("superclasses");
    if (!superclasses || depth == 0) return std::nullopt;
    for (uint32_t i = 0; i < superclasses.named_child_count(); ++i) {
      Node base = superclasses.named_child(i);
      if (base.kind() == "keyword_argument" || base.kind() == "comment") continue;
      if (std::optional<std::string> found = torch_base(base, context)) return found;
      Node named = base.kind() == "subscript" ? base.field("value") : base;
      std::optional<std::string> resolved = context.model().resolve(named);
      if (resolved && (*resolved == "typing.Generic" || *resolved == "typing_extensions.Generic")) continue;
      if (named.kind() != "identifier") return std::nullopt;
      const python::Binding* binding = context.model().lookup(named.text(), named);
      if (binding == nullptr || binding->kind != python::BindingKind::Local ||
          binding->node.kind() != "class_definition" || binding->node == klass || defines_init(binding->node)) {
        return std::nullopt;
      }
      return first_base_reaching(binding->node, context, depth - 1);
    }
    return std::nullopt;
  }

  void report(Node call, Edit edit, const std::vector<Node>& passed, const std::string& base, bool drops_comment,
              PythonCheckContext& context) const {
    bool side_effects = false;
    for (Node argument : passed) {
      std::string_view kind = argument.kind();
      side_effects = side_effects || contains_call(argument) || kind == "list_splat" || kind == "dictionary_splat";
    }
    Fix fix = rule_fix(rule(), "Remove the arguments", {edit}, Applicability::Safe);
    if (side_effects || drops_comment) fix.applicability = Applicability::DisplayOnly;
    std::string detail =
        side_effects ? "; an argument calls a function or unpacks a sequence, check before dropping it" : "";
    Diagnostic& diagnostic =
        context.report(rule(), call.range(), {{"base", base}, {"call", single_line(call)}, {"detail", detail}});
    diagnostic.fixes.push_back(std::move(fix));
  }

  std::set<std::string, std::less<>> bases_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_base_init_arguments_check(const engine::RuleSpec& rule) {
  return std::make_unique<BaseInitArgumentsCheck>(rule);
}

}  // namespace torchmigrate::checks
