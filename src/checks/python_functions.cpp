// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/python_functions.hpp"

#include <cctype>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {

using python::Node;

Node enclosing_function(Node node) {
  for (Node parent = node.parent(); parent; parent = parent.parent()) {
    if (parent.kind() == "function_definition" || parent.kind() == "lambda") return parent;
  }
  return {};
}

bool is_parameter_of(const python::SemanticModel& model, Node identifier, Node function) {
  if (!identifier || identifier.kind() != "identifier" || !function) return false;
  Node parameters = function.field("parameters");
  if (!parameters) return false;
  const python::Binding* binding = model.lookup(identifier.text(), identifier);
  return binding != nullptr && binding->kind == python::BindingKind::Local && binding->node.parent() == parameters;
}

std::vector<Node> decorator_expressions(Node decorated_definition) {
  std::vector<Node> expressions;
  python::for_each_named_child(decorated_definition, [&](Node decorator) {
    if (decorator.kind() == "decorator" && decorator.named_child_count() > 0) {
      expressions.push_back(decorator.named_child(0));
    }
  });
  return expressions;
}

Node parameter_at(Node function, uint32_t index) {
  Node parameters = function ? function.field("parameters") : Node();
  if (!parameters) return {};
  // Comments are named children too: `def forward(  # type: ignore[override]` then `ctx, x`.
  for (uint32_t i = 0; i < parameters.named_child_count(); ++i) {
    Node parameter = parameters.named_child(i);
    if (parameter.kind() == "comment") continue;
    if (index-- == 0) return parameter;
  }
  return {};
}

std::string single_line(Node node) {
  std::string out;
  uint32_t previous_end = node.start();
  python::for_each_node(node, [&](Node token) {
    if (token.kind() == "comment" || token.kind() == "line_continuation") return python::WalkStep::Skip;
    // A string is one token: its content's text lies partly outside its children.
    bool atomic = token.kind() == "string";
    if (token.child_count() > 0 && !atomic) return python::WalkStep::Enter;
    std::string_view text = token.text();
    bool gap = token.start() > previous_end && !out.empty();
    bool after_open = !out.empty() && (out.back() == '(' || out.back() == '[' || out.back() == '{');
    bool before_close = text == ")" || text == "]" || text == "}" || text == ",";
    if (gap && !after_open && !before_close) out += ' ';
    out += text;
    previous_end = token.end();
    return atomic ? python::WalkStep::Skip : python::WalkStep::Enter;
  });
  return out;
}

bool is_builtin(const python::SemanticModel& model, Node expression, std::string_view name) {
  expression = strip_parentheses(expression);
  if (!expression) return false;
  if (expression.kind() == "identifier") {
    return expression.text() == name && model.lookup(name, expression) == nullptr;
  }
  if (expression.kind() == "attribute") {
    std::optional<std::string> resolved = model.resolve(expression);
    return resolved && *resolved == "builtins." + std::string(name);
  }
  return false;
}

Node getattr_name(const python::SemanticModel& model, Node call) {
  if (!call || call.kind() != "call" || !is_builtin(model, call.field("function"), "getattr")) return {};
  CallArguments arguments(call);
  if (!arguments.valid() || arguments.has_star_args() || arguments.has_star_kwargs() ||
      arguments.positional().size() != 2) {
    return {};
  }
  Node name = arguments.positional()[1];
  return plain_string(name) ? name : Node{};
}

Node strip_parentheses(Node expression) {
  while (expression && expression.kind() == "parenthesized_expression" && expression.named_child_count() == 1) {
    expression = expression.named_child(0);
  }
  return expression;
}

bool callee_may_end_in(python::Node call, const std::set<std::string, std::less<>>& names) {
  python::Node callee = strip_parentheses(call.field("function"));
  if (!callee || callee.kind() != "attribute") return true;
  return names.count(callee.field("attribute").text()) > 0;
}

bool has_word(std::string_view text, std::string_view word) {
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool before = at == 0 || !is_word(text[at - 1]);
    bool after = at + word.size() >= text.size() || !is_word(text[at + word.size()]);
    if (before && after) return true;
  }
  return false;
}

}  // namespace torchmigrate::checks
