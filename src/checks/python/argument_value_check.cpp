// SPDX-License-Identifier: MIT
// Family `argument-value`: a call of one of the listed torch functions whose argument (a keyword,
// or a position) has a value torch now rejects, ignores or deprecates. The value may be spelled
// in the call or held in a name assigned once in the same scope. Each reported value has its own
// fix (delete the keyword, replace it, or none). Optional: keywords whose presence silences the
// call, a file-local exemption for a value the file registers itself (`register_backend(name=...)`),
// and `value in callee()` membership tests reported at their own severity.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

struct CalleeSpec {
  std::string keyword;             // the argument's keyword name
  std::optional<size_t> position;  // its position, when it may be passed positionally
  // The keywords of the parameters after `position`, in order: a fix of a positional argument
  // writes the positional arguments after it with these (without them it has no fix).
  std::optional<std::vector<std::string>> keywords_after;
};

enum class Action { Report, Delete, Replace };

struct ValueSpec {
  std::string when;  // a Python literal, `*` (any value) or `non-literal`
  Action action = Action::Report;
  std::optional<Applicability> applicability;   // less safe than the rule's, for this value
  std::optional<FixRequirements> requirements;  // this value's fix's own, instead of the rule's
  std::string with;                             // Replace: the new argument, `{value}` filled in
  std::string note;                             // appended to the fix's title
  std::string detail;                           // the message's `{detail}`
};

// The argument as the call passes it, and the literal it stands for.
struct ArgumentValue {
  Node argument;  // the keyword_argument, or the positional expression
  Node written;   // the value as written in the call
  Node literal;   // `written`, or the literal assigned to the name `written` (null when none)
};

bool is_literal_node(Node node) {
  if (!node) return false;
  std::string_view kind = node.kind();
  if (kind == "string") return plain_string(node).has_value();
  return kind == "true" || kind == "false" || kind == "none" || kind == "integer" || kind == "float";
}

// The literal a name is bound to by the one assignment that reaches `at` in the same scope.
Node assigned_literal(const python::SemanticModel& model, Node name) {
  std::vector<const python::Binding*> bindings = model.reaching_bindings(name.text(), name);
  if (bindings.size() != 1 || bindings.front()->kind != python::BindingKind::Local) return {};
  Node statement = bindings.front()->node;
  if (!statement || statement.kind() != "assignment") return {};
  Node left = statement.field("left");
  if (!left || left.kind() != "identifier" || left.text() != name.text()) return {};
  if (model.scope_at(statement.start()) != model.scope_at(name.start())) return {};
  Node right = strip_parentheses(statement.field("right"));
  return is_literal_node(right) ? right : Node{};
}

// `"abc"` matches the string abc however it is quoted; other literals match their spelling.
bool literal_matches(Node literal, std::string_view expected) {
  if (!expected.empty() && (expected.front() == '"' || expected.front() == '\'')) {
    std::optional<std::string> text = plain_string(literal);
    return text && expected.size() >= 2 && *text == expected.substr(1, expected.size() - 2);
  }
  return literal.kind() != "string" && literal.text() == expected;
}

bool value_matches(const ValueSpec& spec, Node literal) {
  if (spec.when == "*") return true;
  if (spec.when == "non-literal") return !literal;
  return literal && literal_matches(literal, spec.when);
}

// A value's source for a message or title, shortened when long.
std::string shown(Node node) {
  std::string text = single_line(node);
  return text.size() <= 40 ? text : text.substr(0, 37) + "...";
}

ValueSpec read_value(const Params& value, const std::string& rule_code) {
  ValueSpec spec;
  spec.when = value.string("when");
  if (value.has("action")) spec.action = static_cast<Action>(value.choice("action", {"report", "delete", "replace"}));
  if (spec.action == Action::Replace) spec.with = value.string("with");
  if (value.has("applicability")) {
    spec.applicability = static_cast<Applicability>(value.choice("applicability", {"safe", "unsafe", "display-only"}));
  }
  if (value.has("requires"))
    spec.requirements = engine::parse_fix_requirements(value.json("requires"), rule_code + ": values: requires");
  if (value.has("note")) spec.note = value.string("note");
  if (value.has("detail")) spec.detail = value.string("detail");
  value.finish();
  return spec;
}

// Functions that register a value under a name (`register_backend(name="x")`, or the decorated
// `def x`): a file that registers a reported value itself is not reported.
struct Registration {
  std::set<std::string> callees;
  std::set<std::string, std::less<>> last_names;
  std::string keyword;
  bool project_fact = false;  // also every name the project registers (facts::dynamo_backends)
};

// `value in callee()` tests, reported at their own severity.
struct Membership {
  std::set<std::string> callees;
  Severity severity = Severity::Info;
  std::string detail;
};

// A finding held until the file is read, when a registration may exempt it.
struct Pending {
  TextRange range;
  std::map<std::string, std::string> values;
  std::optional<Severity> severity;
  std::vector<Fix> fixes;
  std::string literal;  // the plain string it reports ("" for other values)
};

class ArgumentValueCheck final : public engine::PythonCheck {
 public:
  explicit ArgumentValueCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    std::string keyword = params.has("keyword") ? params.string("keyword") : "";
    for (const Params& callee : params.objects("callees")) read_callee(callee, keyword);
    for (const Params& value : params.objects("values")) values_.push_back(read_value(value, rule.code));
    if (params.has("silenced_by")) silenced_by_ = params.strings("silenced_by");
    if (params.has("silenced_when")) {
      for (const Params& condition : params.objects("silenced_when")) {
        silenced_when_.emplace_back(condition.string("keyword"), condition.strings("values"));
        condition.finish();
      }
    }
    if (params.has("wrappers")) {
      for (const std::string& wrapper : params.strings("wrappers")) wrappers_.insert(wrapper);
    }
    if (params.has("unpacked")) {
      const Params unpacked = params.object("unpacked");
      unpacked_.severity = static_cast<Severity>(unpacked.choice("severity", {"error", "warning", "info"}));
      unpacked_.detail = unpacked.string("detail");
      unpacked.finish();
    }
    if (params.has("registered_by")) read_registration(params.object("registered_by"));
    if (params.has("membership")) read_membership(params.object("membership"));
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"call", "comparison_operator", "decorated_definition"};
  }
  // Not statement-local: a value may be held in a name assigned in another statement, and a
  // registration anywhere in the file exempts it.
  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "decorated_definition") return note_decorated_registration(node, context);
    if (node.kind() == "comparison_operator") return visit_membership(node, context);
    note_registration(node, context);
    visit_call(node, context);
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    if (registration_.project_fact) return {engine::facts::dynamo_backends};
    return {};
  }

  void finish(PythonCheckContext& context) override {
    const std::vector<std::string>* project =
        registration_.project_fact ? &context.settings().project_fact(engine::facts::dynamo_backends) : nullptr;
    for (Pending& pending : pending_) {
      if (!pending.literal.empty() && registered_.contains(pending.literal)) continue;
      if (project && std::binary_search(project->begin(), project->end(), pending.literal)) continue;
      Diagnostic& diagnostic = context.report(rule(), pending.range, pending.values);
      if (pending.severity) diagnostic.severity = *pending.severity;
      diagnostic.fixes = std::move(pending.fixes);
    }
    pending_.clear();
    registered_.clear();
  }

 private:
  void read_callee(const Params& callee, const std::string& keyword) {
    CalleeSpec spec;
    spec.keyword = callee.has("keyword") ? callee.string("keyword") : keyword;
    if (spec.keyword.empty()) throw engine::CatalogError(rule().code + ": a callee without a keyword");
    if (callee.has("position")) spec.position = callee.integer("position");
    if (callee.has("keywords_after")) spec.keywords_after = callee.strings("keywords_after");
    std::string name = callee.string("name");
    last_names_.insert(name.substr(name.rfind('.') + 1));
    callees_.emplace(std::move(name), std::move(spec));
    callee.finish();
  }

  void read_registration(const Params& registration) {
    for (const std::string& callee : registration.strings("callees")) {
      registration_.callees.insert(callee);
      registration_.last_names.insert(callee.substr(callee.rfind('.') + 1));
    }
    registration_.keyword = registration.string("keyword");
    if (registration.has("project_fact"))
      registration_.project_fact = registration.choice("project_fact", {"dynamo-backends"}) == 0;
    registration.finish();
  }

  void read_membership(const Params& membership) {
    for (const std::string& callee : membership.strings("callees")) membership_.callees.insert(callee);
    membership_.severity = static_cast<Severity>(membership.choice("severity", {"error", "warning", "info"}));
    membership_.detail = membership.string("detail");
    membership.finish();
  }

  // The callee spec of a call: its function directly, or a name assigned `wrapper(function)`
  // (`compiled = torch.compile(flex_attention)`), or `wrapper(function)(...)` itself.
  const std::pair<const std::string, CalleeSpec>* callee_of(Node call, const python::SemanticModel& model) const {
    if (callee_may_end_in(call, last_names_)) {
      std::optional<std::string> name = model.resolve_call(call);
      auto it = name ? callees_.find(*name) : callees_.end();
      if (it != callees_.end()) return &*it;
    }
    if (wrappers_.empty()) return nullptr;
    Node function = strip_parentheses(call.field("function"));
    if (function && function.kind() == "identifier") {
      std::vector<const python::Binding*> bindings = model.reaching_bindings(function.text(), function);
      if (bindings.size() != 1 || bindings.front()->kind != python::BindingKind::Local) return nullptr;
      Node statement = bindings.front()->node;
      if (!statement || statement.kind() != "assignment") return nullptr;
      function = strip_parentheses(statement.field("right"));
    }
    return wrapped_callee(function, model);
  }

  const std::pair<const std::string, CalleeSpec>* wrapped_callee(Node wrapper_call,
                                                                 const python::SemanticModel& model) const {
    if (!wrapper_call || wrapper_call.kind() != "call") return nullptr;
    std::optional<std::string> wrapper = model.resolve_call(wrapper_call);
    if (!wrapper || !wrappers_.contains(*wrapper)) return nullptr;
    CallArguments arguments(wrapper_call);
    if (!arguments.valid() || arguments.positional().empty()) return nullptr;
    std::optional<std::string> wrapped = model.resolve(arguments.positional().front());
    auto it = wrapped ? callees_.find(*wrapped) : callees_.end();
    return it == callees_.end() ? nullptr : &*it;
  }

  // The argument a call passes for `spec`, by keyword or position.
  static std::optional<ArgumentValue> argument_of(const CallArguments& arguments, const CalleeSpec& spec,
                                                  const python::SemanticModel& model) {
    ArgumentValue value;
    if (Node keyword = arguments.keyword(spec.keyword)) {
      value.argument = keyword;
      value.written = keyword.field("value");
    } else if (spec.position && !arguments.has_star_args() && arguments.positional().size() > *spec.position) {
      value.argument = value.written = arguments.positional()[*spec.position];
    } else {
      return std::nullopt;
    }
    Node written = strip_parentheses(value.written);
    if (is_literal_node(written)) {
      value.literal = written;
    } else if (written && written.kind() == "identifier") {
      value.literal = assigned_literal(model, written);
    }
    return value;
  }

  const ValueSpec* matching_value(Node literal) const {
    for (const ValueSpec& spec : values_) {
      if (value_matches(spec, literal)) return &spec;
    }
    return nullptr;
  }

  void visit_call(Node call, PythonCheckContext& context);
  void visit_membership(Node comparison, PythonCheckContext& context);
  void note_registration(Node call, PythonCheckContext& context);
  void note_decorated_registration(Node definition, PythonCheckContext& context);
  void report_unpacked(Node call, const std::string& callee, const CalleeSpec& spec);
  [[nodiscard]] std::string use_of(const std::string& callee, const CalleeSpec& spec, const ArgumentValue& value) const;
  [[nodiscard]] std::optional<Fix> fix_for(const ValueSpec& spec, const CallArguments& arguments,
                                           const CalleeSpec& callee, const ArgumentValue& value) const;
  void hold(Pending pending) { pending_.push_back(std::move(pending)); }

  std::map<std::string, CalleeSpec, std::less<>> callees_;
  std::set<std::string, std::less<>> last_names_;  // of `callees_`
  std::vector<ValueSpec> values_;
  std::vector<std::string> silenced_by_;
  // keyword -> values (Python source) that mean the call is not affected (`dynamo=False`)
  std::vector<std::pair<std::string, std::vector<std::string>>> silenced_when_;
  std::set<std::string> wrappers_;
  struct {
    std::optional<Severity> severity;  // set: calls that unpack `**mapping` are reported too
    std::string detail;
  } unpacked_;
  Registration registration_;
  Membership membership_;
  std::vector<Pending> pending_;
  std::set<std::string, std::less<>> registered_;  // values the file registers itself
};

void ArgumentValueCheck::visit_call(Node call, PythonCheckContext& context) {
  const python::SemanticModel& model = context.model();
  const auto* callee = callee_of(call, model);
  if (callee == nullptr) return;
  CallArguments arguments(call);
  if (!arguments.valid()) return;
  for (const std::string& keyword : silenced_by_) {
    if (arguments.keyword(keyword)) return;
  }
  for (const auto& [keyword, values] : silenced_when_) {
    Node given = arguments.keyword_value(keyword);
    if (given && std::find(values.begin(), values.end(), given.text()) != values.end()) return;
  }
  std::optional<ArgumentValue> value = argument_of(arguments, callee->second, model);
  if (!value) {
    if (unpacked_.severity) report_unpacked(call, callee->first, callee->second);
    return;
  }
  const ValueSpec* spec = matching_value(value->literal);
  if (spec == nullptr) return;
  Pending pending;
  pending.range = value->argument.range();
  pending.values = {{"callee", callee->first},
                    {"keyword", callee->second.keyword},
                    {"value", shown(value->literal ? value->literal : value->written)},
                    {"use", use_of(callee->first, callee->second, *value)},
                    {"detail", spec->detail}};
  if (value->literal) pending.literal = plain_string(value->literal).value_or("");
  if (std::optional<Fix> fix = fix_for(*spec, arguments, callee->second, *value)) pending.fixes.push_back(*fix);
  hold(std::move(pending));
}

// A call without the argument that unpacks a mapping (`**options`), which may carry it: no fix.
void ArgumentValueCheck::report_unpacked(Node call, const std::string& callee, const CalleeSpec& spec) {
  Node list = call.field("arguments");
  for (uint32_t i = 0; list && i < list.named_child_count(); ++i) {
    Node splat = list.named_child(i);
    if (splat.kind() != "dictionary_splat") continue;
    Pending pending;
    pending.range = splat.range();
    pending.values = {{"callee", callee},
                      {"keyword", spec.keyword},
                      {"value", ""},
                      {"use", "`" + callee + "(..., " + shown(splat) + ")`"},
                      {"detail", unpacked_.detail}};
    pending.severity = unpacked_.severity;
    hold(std::move(pending));
    return;
  }
}

// "`torch.compile(..., backend="onnxrt")`", with the name's assignment when the value is held in one.
std::string ArgumentValueCheck::use_of(const std::string& callee, const CalleeSpec& spec,
                                       const ArgumentValue& value) const {
  std::string written = shown(value.written);
  bool positional = value.argument == value.written;
  std::string use = "`" + callee + "(";
  if (positional && *spec.position == 0) {
    use += written + ", ...)`";
  } else if (positional) {
    use +=
        "..., " + written + ", ...)` (`" + spec.keyword + "` as argument " + std::to_string(*spec.position + 1) + ")";
  } else {
    use += "..., " + spec.keyword + "=" + written + ")`";
  }
  if (value.literal && value.literal != strip_parentheses(value.written)) {
    use += " (`" + written + " = " + shown(value.literal) + "`)";
  }
  return use;
}

std::optional<Fix> ArgumentValueCheck::fix_for(const ValueSpec& spec, const CallArguments& arguments,
                                               const CalleeSpec& callee, const ArgumentValue& value) const {
  if (spec.action == Action::Report) return std::nullopt;
  bool positional = value.argument == value.written;
  std::vector<Edit> edits;
  std::string old_text = "`" + callee.keyword + "=" + shown(value.written) + "`";
  std::string also;  // the title's note on the positional arguments after it
  if (positional) {
    // Removing or rewriting a positional argument shifts those after it: they become keywords.
    const std::vector<Node>& given = arguments.positional();
    size_t after = given.size() - *callee.position - 1;
    if (!callee.keywords_after || callee.keywords_after->size() < after) return std::nullopt;
    for (size_t i = 0; i < after; ++i) {
      Node later = given[*callee.position + 1 + i];
      const std::string& keyword = (*callee.keywords_after)[i];
      edits.push_back(Edit::insert(later.start(), keyword + "="));
      also.append("; pass `").append(shown(later)).append("` as `").append(keyword).append("=");
      also.append(shown(later)).append("`");
    }
    old_text.assign("`").append(shown(value.written)).append("` (argument ");
    old_text.append(std::to_string(*callee.position + 1)).append(", `").append(callee.keyword).append("`)");
  }
  Fix fix;
  if (spec.action == Action::Delete) {
    edits.insert(edits.begin(), arguments.remove_argument(value.argument));
    fix = rule_fix(rule(), "Remove " + old_text + also, std::move(edits), Applicability::Safe);
  } else {
    std::string replacement = spec.with;
    if (size_t at = replacement.find("{value}"); at != std::string::npos) {
      replacement.replace(at, 7, std::string(value.written.text()));
    }
    edits.insert(edits.begin(), Edit::replace(value.argument.range(), replacement));
    fix = rule_fix(rule(), "Replace " + old_text + " with `" + replacement + "`" + also, std::move(edits),
                   Applicability::Safe);
  }
  if (!spec.note.empty()) fix.title += "; " + spec.note;
  if (spec.applicability) fix.applicability = least_safe(fix.applicability, *spec.applicability);
  if (spec.requirements) fix.requirements = *spec.requirements;
  return fix;
}

// `"onnxrt" in torch._dynamo.list_backends()` (or `not in`).
void ArgumentValueCheck::visit_membership(Node comparison, PythonCheckContext& context) {
  if (membership_.callees.empty() || comparison.named_child_count() != 2) return;
  std::string_view operator_text = comparison.child(1).text();
  if (operator_text != "in" && operator_text != "not in" && operator_text != "not") return;
  Node left = strip_parentheses(comparison.named_child(0));
  Node right = strip_parentheses(comparison.named_child(1));
  if (!right || right.kind() != "call") return;
  std::optional<std::string> callee = context.model().resolve_call(right);
  if (!callee || !membership_.callees.contains(*callee)) return;
  Node literal = is_literal_node(left)                   ? left
                 : (left && left.kind() == "identifier") ? assigned_literal(context.model(), left)
                                                         : Node{};
  if (!literal) return;
  const ValueSpec* spec = matching_value(literal);
  if (spec == nullptr || spec->when == "*" || spec->when == "non-literal") return;
  Pending pending;
  pending.range = comparison.range();
  pending.values = {{"callee", *callee},
                    {"keyword", ""},
                    {"value", shown(literal)},
                    {"use", "`" + single_line(comparison) + "`"},
                    {"detail", membership_.detail}};
  pending.severity = membership_.severity;
  pending.literal = plain_string(literal).value_or("");
  hold(std::move(pending));
}

// `register_backend(fn, name="onnxrt")` / `@register_backend(name="onnxrt")`: the file registers it.
void ArgumentValueCheck::note_registration(Node call, PythonCheckContext& context) {
  if (registration_.callees.empty() || !callee_may_end_in(call, registration_.last_names)) return;
  std::optional<std::string> callee = context.model().resolve_call(call);
  if (!callee || !registration_.callees.contains(*callee)) return;
  CallArguments arguments(call);
  if (!arguments.valid()) return;
  if (std::optional<std::string> name =
          plain_string(strip_parentheses(arguments.keyword_value(registration_.keyword)))) {
    registered_.insert(*name);
  }
}

// `@register_backend` over `def onnxrt(...)`: registered under the function's own name.
void ArgumentValueCheck::note_decorated_registration(Node definition, PythonCheckContext& context) {
  if (registration_.callees.empty()) return;
  Node function = definition.field("definition");
  if (!function || function.kind() != "function_definition") return;
  for (uint32_t i = 0; i < definition.named_child_count(); ++i) {
    Node decorator = definition.named_child(i);
    if (decorator.kind() != "decorator" || decorator.named_child_count() == 0) continue;
    std::optional<std::string> name = context.model().resolve(decorator.named_child(0));
    if (name && registration_.callees.contains(*name)) registered_.insert(std::string(function.field("name").text()));
  }
}

}  // namespace

std::unique_ptr<engine::PythonCheck> make_argument_value_check(const engine::RuleSpec& rule) {
  return std::make_unique<ArgumentValueCheck>(rule);
}

}  // namespace torchmigrate::checks
