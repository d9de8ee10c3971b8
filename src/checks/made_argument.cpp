// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/made_argument.hpp"

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/python_functions.hpp"

namespace torchmigrate::checks {

using python::Node;

MadeArgumentRule read_made_argument_rule(const Params& params) {
  MadeArgumentRule rule;
  for (const std::string& callee : params.strings("callees")) {
    rule.callees.insert(callee);
    rule.last_names.insert(callee.substr(callee.rfind('.') + 1));
  }
  for (const Params& argument : params.objects("arguments")) {
    rule.arguments.emplace_back(argument.string("keyword"), argument.integer("position"));
    argument.finish();
  }
  for (const Params& entry : params.objects("made_by")) {
    MadeBy made{entry.string("callee"), "", std::nullopt, ""};
    if (entry.has("keyword")) {
      made.keyword = entry.string("keyword");
      made.value = entry.string("value");
      if (entry.has("position")) made.position = entry.integer("position");
    }
    entry.finish();
    rule.made_by.push_back(std::move(made));
  }
  rule.severity = static_cast<Severity>(params.choice("severity", {"error", "warning", "info"}));
  rule.detail = params.string("detail");
  rule.advice = params.string("advice");
  params.finish();
  return rule;
}

namespace {

// Whether `call` is one of `rule.made_by`, with its keyword value: the callee it resolves to.
std::optional<std::string> maker(Node call, const python::SemanticModel& model, const MadeArgumentRule& rule) {
  std::optional<std::string> callee = model.resolve_call(call);
  if (!callee) return std::nullopt;
  for (const MadeBy& made : rule.made_by) {
    if (made.callee != *callee) continue;
    if (made.keyword.empty()) return callee;
    CallArguments arguments(call);
    if (!arguments.valid()) continue;
    Node value = arguments.keyword_value(made.keyword);
    if (!value && made.position && *made.position < arguments.positional().size()) {
      value = arguments.positional()[*made.position];
    }
    std::optional<std::string> resolved = value ? model.resolve(value) : std::nullopt;
    if (resolved && *resolved == made.value) return callee;
  }
  return std::nullopt;
}

}  // namespace

std::optional<MadeArgument> made_argument(Node call, const python::SemanticModel& model, const MadeArgumentRule& rule) {
  if (!callee_may_end_in(call, rule.last_names)) return std::nullopt;  // no look-up for most calls
  std::optional<std::string> callee = model.resolve_call(call);
  if (!callee || !rule.callees.contains(*callee)) return std::nullopt;
  CallArguments arguments(call);
  if (!arguments.valid()) return std::nullopt;
  for (const auto& [keyword, position] : rule.arguments) {
    Node value = arguments.keyword_value(keyword);
    if (!value && position < arguments.positional().size()) value = arguments.positional()[position];
    if (!value || value.kind() != "identifier") continue;
    const python::Binding* binding = model.lookup(value.text(), value);
    if (binding == nullptr || binding->kind != python::BindingKind::Local || !binding->node) continue;
    Node assignment = binding->node;
    if (assignment.kind() != "assignment" || model.scope_at(assignment.start()) != model.scope_at(call.start())) {
      continue;
    }
    Node left = assignment.field("left");
    Node right = assignment.field("right");
    if (!left || left.text() != value.text() || !right || right.kind() != "call") continue;
    if (std::optional<std::string> made = maker(right, model, rule)) return MadeArgument{value, *callee, *made};
  }
  return std::nullopt;
}

}  // namespace torchmigrate::checks
