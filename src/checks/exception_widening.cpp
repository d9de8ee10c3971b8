// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/exception_widening.hpp"

#include <string_view>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {

using python::Node;

namespace {

// What a handler's or assertion's class expression catches.
enum class Catches { Nothing, OldOnly, New, Unknown };

// `e` of `except e as name` and of `with x as name`: tree-sitter-python 0.23 wraps it in an as_pattern.
Node without_alias(Node value) {
  value = strip_parentheses(value);
  if (value && value.kind() == "as_pattern") value = strip_parentheses(value.named_child(0));
  return value;
}

// A class that is not a plain name (a call, a subscript) may be anything: Unknown.
Catches classify(const python::SemanticModel& model, Node classes, const ClassChange& change) {
  bool old = false;
  for (Node element : class_elements(classes)) {
    element = strip_parentheses(element);
    if (element.kind() != "identifier" && element.kind() != "attribute") return Catches::Unknown;
    if (is_builtin(model, element, change.new_class)) return Catches::New;
    for (const std::string& base : change.bases) {
      if (is_builtin(model, element, base)) return Catches::New;
    }
    old = old || is_builtin(model, element, change.old_class);
  }
  return old ? Catches::OldOnly : Catches::Nothing;
}

enum class TryVerdict { Passes, Caught, Missed };

// Whether the handlers of `try_statement` let the new class pass, catch it, or catch only the
// old one (`missed` is then the first handler of the old class).
TryVerdict judge_try(const python::SemanticModel& model, Node try_statement, const ClassChange& change,
                     MissedCatch& missed) {
  bool found = false;
  for (uint32_t i = 0; i < try_statement.named_child_count(); ++i) {
    Node clause = try_statement.named_child(i);
    if (clause.kind() != "except_clause") continue;
    Node classes = handler_classes(clause);
    if (!classes) return TryVerdict::Caught;  // bare `except:`
    Catches catches = classify(model, classes, change);
    if (catches == Catches::New || catches == Catches::Unknown) return TryVerdict::Caught;
    if (catches == Catches::OldOnly && !found) {
      missed = {MissedCatch::Kind::Handler, clause, classes};
      found = true;
    }
  }
  return found ? TryVerdict::Missed : TryVerdict::Passes;
}

// The assertion whose callable is `lambda`, judged; nullopt for any other lambda.
std::optional<MissedCatch> lambda_assertion(const python::SemanticModel& model, Node lambda,
                                            const ClassChange& change) {
  Node list = lambda.parent();
  Node call = list ? list.parent() : Node();
  if (!call || call.kind() != "call") return std::nullopt;
  std::optional<TestAssertion> assertion = read_test_assertion(model, call);
  if (!assertion || assertion->callable != lambda) return std::nullopt;
  return missed_by_assertion(model, *assertion, change);
}

// The `with pytest.raises(...)` items of a with statement whose body raises.
std::optional<MissedCatch> with_assertion(const python::SemanticModel& model, Node with_statement,
                                          const ClassChange& change, bool& judged) {
  Node clause;
  for (uint32_t i = 0; i < with_statement.named_child_count(); ++i) {
    if (with_statement.named_child(i).kind() == "with_clause") clause = with_statement.named_child(i);
  }
  if (!clause) return std::nullopt;
  for (uint32_t i = 0; i < clause.named_child_count(); ++i) {
    Node item = clause.named_child(i);
    if (item.kind() != "with_item") continue;
    Node value = without_alias(item.field("value"));
    if (!value || value.kind() != "call") continue;
    if (std::optional<TestAssertion> assertion = read_test_assertion(model, value)) {
      judged = true;
      return missed_by_assertion(model, *assertion, change);
    }
  }
  return std::nullopt;
}

}  // namespace

Node handler_classes(Node except_clause) {
  Node value = except_clause.field("value");
  return value ? without_alias(value) : Node();
}

std::vector<Node> class_elements(Node classes) {
  classes = strip_parentheses(classes);
  if (classes.kind() != "tuple") return {classes};
  std::vector<Node> elements;
  for (uint32_t i = 0; i < classes.named_child_count(); ++i) {
    if (classes.named_child(i).kind() != "comment") elements.push_back(classes.named_child(i));
  }
  return elements;
}

Widening read_widening(const Params& params) {
  Widening widening;
  widening.change.old_class = params.string("old_class");
  widening.change.new_class = params.string("new_class");
  for (const std::string& name : params.strings("catch_all_classes")) widening.change.bases.insert(name);
  widening.trusted_modules = params.strings("trusted_modules");
  return widening;
}

std::optional<TestAssertion> read_test_assertion(const python::SemanticModel& model, Node call) {
  Node function = call.field("function");
  if (!function) return std::nullopt;
  size_t callable_index = 1;
  if (function.kind() == "attribute") {
    std::string_view method = function.field("attribute").text();
    if (method == "assertRaisesRegex" || method == "assertRaisesRegexp") {
      callable_index = 2;
    } else if (method != "assertRaises" && model.resolve_call(call) != "pytest.raises") {
      return std::nullopt;
    }
  } else if (model.resolve_call(call) != "pytest.raises") {
    return std::nullopt;
  }
  CallArguments arguments(call);
  if (!arguments.valid() || arguments.positional().empty()) return std::nullopt;
  const std::vector<Node>& positional = arguments.positional();
  TestAssertion assertion{call, positional.front(), {}, {}};
  if (positional.size() > callable_index) {
    assertion.callable = positional[callable_index];
    assertion.arguments.assign(positional.begin() + static_cast<std::ptrdiff_t>(callable_index) + 1, positional.end());
  }
  return assertion;
}

std::optional<MissedCatch> missed_by_assertion(const python::SemanticModel& model, const TestAssertion& assertion,
                                               const ClassChange& change) {
  if (classify(model, assertion.classes, change) != Catches::OldOnly) return std::nullopt;
  return MissedCatch{MissedCatch::Kind::Assertion, assertion.call, strip_parentheses(assertion.classes)};
}

std::optional<MissedCatch> find_missed_catch(const python::SemanticModel& model, Node raising,
                                             const ClassChange& change) {
  for (Node child = raising, parent = raising.parent(); parent; child = parent, parent = parent.parent()) {
    std::string_view kind = parent.kind();
    if (kind == "function_definition" || kind == "class_definition") return std::nullopt;
    if (kind == "lambda") return lambda_assertion(model, parent, change);
    if (kind == "try_statement" && parent.field("body") == child) {
      MissedCatch missed;
      TryVerdict verdict = judge_try(model, parent, change, missed);
      if (verdict == TryVerdict::Caught) return std::nullopt;
      if (verdict == TryVerdict::Missed) return missed;
    } else if (kind == "with_statement" && parent.field("body") == child) {
      bool judged = false;
      std::optional<MissedCatch> missed = with_assertion(model, parent, change, judged);
      if (judged) return missed;
    }
  }
  return std::nullopt;
}

std::string widened_text(Node classes, const std::string& new_class) {
  Node inner = strip_parentheses(classes);
  std::vector<Node> elements = class_elements(inner);
  std::string text(1, '(');
  for (Node element : elements) {
    text.append(element.text());
    text.append(", ");
  }
  text.append(new_class);
  text.push_back(')');
  return text;
}

Edit widen_classes(Node classes, const std::string& new_class) {
  Node inner = strip_parentheses(classes);
  std::vector<Node> elements = inner.kind() == "tuple" ? class_elements(inner) : std::vector<Node>{};
  // A tuple keeps its layout and comments: the new class goes after its last element.
  if (!elements.empty()) return Edit::insert(elements.back().end(), ", " + new_class);
  return Edit::replace(classes.range(), widened_text(classes, new_class));
}

std::string code_span(std::string_view text) {
  std::string span(1, '`');
  span.append(text);
  span.push_back('`');
  return span;
}

std::string describe_catch(const MissedCatch& missed) {
  std::string text = missed.kind == MissedCatch::Kind::Handler ? "except " : single_line(missed.site.field("function"));
  if (missed.kind == MissedCatch::Kind::Handler) return code_span(text.append(single_line(missed.classes)));
  bool more = CallArguments(missed.site).positional().size() > 1;
  text.push_back('(');
  text.append(single_line(missed.classes));
  text.append(more ? ", ...)" : ")");
  return code_span(text);
}

TextRange catch_range(const MissedCatch& missed) {
  if (missed.kind == MissedCatch::Kind::Handler) return {missed.site.start(), missed.classes.end()};
  return missed.site.range();
}

Fix widening_fix(const engine::RuleSpec& rule, const MissedCatch& missed, const std::string& new_class) {
  const bool handler = missed.kind == MissedCatch::Kind::Handler;
  std::string widened = widened_text(missed.classes, new_class);
  std::string title = handler ? "Catch " : "Expect ";
  Fix fix =
      rule_fix(rule, title.append(code_span(widened)), {widen_classes(missed.classes, new_class)}, Applicability::Safe);
  if (!handler) fix.applicability = Applicability::DisplayOnly;
  return fix;
}

bool calls_under(const python::SemanticModel& model, Node call, const std::vector<std::string>& modules) {
  std::optional<std::string> callee = model.resolve_call(call);
  if (!callee) return false;
  for (const std::string& module : modules) {
    if (is_under(*callee, module)) return true;
  }
  return false;
}

bool widening_offered(const MissedCatch& missed, const std::function<bool(Node)>& trusted) {
  if (missed.kind == MissedCatch::Kind::Assertion) return true;
  Node try_statement = missed.site.parent();
  Node body = try_statement ? try_statement.field("body") : Node();
  if (!body) return false;
  uint32_t statements = 0;
  for (uint32_t i = 0; i < body.named_child_count(); ++i) {
    if (body.named_child(i).kind() != "comment") ++statements;
  }
  if (statements != 1) return false;
  bool all_trusted = true;
  python::for_each_node(body, [&](Node node) {
    if (node.kind() == "call" && !trusted(node)) {
      all_trusted = false;
      return python::WalkStep::Stop;
    }
    return python::WalkStep::Enter;
  });
  return all_trusted;
}

}  // namespace torchmigrate::checks
