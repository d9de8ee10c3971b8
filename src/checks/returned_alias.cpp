// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/returned_alias.hpp"

#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {

using python::Node;

std::string ReturnedAlias::problem() const {
  std::string name(parameter.text());
  switch (kind) {
    case Kind::Input: return "returns its input `" + name + "` unchanged";
    case Kind::View: return "returns a view of its input `" + name + "`";
    case Kind::Twice: return "returns `" + name + "` twice";
  }
  return {};
}

ReturnedAliasMatcher ReturnedAliasMatcher::from_params(const Params& params) {
  std::set<std::string, std::less<>> methods;
  std::set<std::string, std::less<>> attributes;
  for (const std::string& method : params.strings("view_methods")) methods.insert(method);
  for (const std::string& attribute : params.strings("view_attributes")) attributes.insert(attribute);
  return {std::move(methods), std::move(attributes)};
}

std::vector<ReturnedAlias> ReturnedAliasMatcher::find(Node returned, Node function,
                                                      const python::SemanticModel& model) const {
  std::vector<ReturnedAlias> out;
  find_in(returned, function, model, out);
  return out;
}

void ReturnedAliasMatcher::find_in(Node expression, Node function, const python::SemanticModel& model,
                                   std::vector<ReturnedAlias>& out) const {
  expression = strip_parentheses(expression);
  if (!expression) return;
  std::string_view kind = expression.kind();
  if (kind == "tuple" || kind == "list" || kind == "expression_list") {
    std::set<std::string_view> seen;
    for (uint32_t i = 0; i < expression.named_child_count(); ++i) {
      Node element = strip_parentheses(expression.named_child(i));
      if (element.kind() == "comment") continue;
      Node parameter;
      if (element.kind() == "identifier" && !alias_of(element, function, model, parameter) &&
          !seen.insert(element.text()).second) {
        out.push_back({ReturnedAlias::Kind::Twice, element, element});
        continue;
      }
      find_in(element, function, model, out);
    }
    return;
  }
  Node parameter;
  if (std::optional<ReturnedAlias::Kind> alias = alias_of(expression, function, model, parameter)) {
    out.push_back({*alias, expression, parameter});
  }
}

std::optional<ReturnedAlias::Kind> ReturnedAliasMatcher::alias_of(Node expression, Node function,
                                                                  const python::SemanticModel& model,
                                                                  Node& parameter) const {
  expression = strip_parentheses(expression);
  if (!expression) return std::nullopt;
  std::string_view kind = expression.kind();
  if (kind == "identifier") {
    if (!is_parameter_of(model, expression, function)) return std::nullopt;
    parameter = expression;
    return ReturnedAlias::Kind::Input;
  }
  Node base;
  if (kind == "subscript") {
    base = expression.field("value");
  } else if (kind == "attribute" && view_attributes_.count(expression.field("attribute").text())) {
    base = expression.field("object");
  } else if (kind == "call") {
    Node callee = expression.field("function");
    if (callee.kind() == "attribute" && view_methods_.count(callee.field("attribute").text())) {
      base = callee.field("object");
    }
  }
  if (!base || !alias_of(base, function, model, parameter)) return std::nullopt;
  return ReturnedAlias::Kind::View;
}

Node function_argument(Node argument, const python::SemanticModel& model) {
  argument = strip_parentheses(argument);
  if (!argument) return {};
  if (argument.kind() == "lambda") return argument;
  if (argument.kind() != "identifier") return {};
  const python::Binding* binding = model.lookup(argument.text(), argument);
  if (binding == nullptr || binding->kind != python::BindingKind::Local) return {};
  return binding->node.kind() == "function_definition" ? binding->node : Node();
}

std::vector<Node> returned_values(Node function) {
  if (!function) return {};
  if (function.kind() == "lambda") return {function.field("body")};
  std::vector<Node> values;
  Node body = function.field("body");
  if (!body) return values;
  python::for_each_node(body, [&](Node node) {
    std::string_view kind = node.kind();
    if (kind == "function_definition" || kind == "lambda" || kind == "class_definition") {
      return python::WalkStep::Skip;
    }
    if (kind == "return_statement") {
      if (node.named_child_count() > 0) values.push_back(node.named_child(0));
      return python::WalkStep::Skip;
    }
    return python::WalkStep::Enter;
  });
  return values;
}

}  // namespace torchmigrate::checks
