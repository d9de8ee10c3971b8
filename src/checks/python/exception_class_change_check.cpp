// SPDX-License-Identifier: MIT
// Family `exception-class-change`: some errors raised by a library's calls now have a builtin
// class that subclasses the old one (TM203: torch's unsupported-dtype errors, RuntimeError ->
// NotImplementedError). `except Old` still works; exact type tests of the caught exception and
// an `except New` placed before a handler of `Old` change behaviour.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/exception_widening.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// Where a bare `not x` may replace a comparison without parentheses.
bool accepts_bare_not(Node parent) {
  static const std::set<std::string_view> kinds{"if_statement",
                                                "elif_clause",
                                                "while_statement",
                                                "assert_statement",
                                                "return_statement",
                                                "expression_statement",
                                                "assignment",
                                                "augmented_assignment",
                                                "keyword_argument",
                                                "argument_list",
                                                "boolean_operator",
                                                "not_operator",
                                                "parenthesized_expression",
                                                "conditional_expression",
                                                "lambda",
                                                "if_clause",
                                                "named_expression",
                                                "list",
                                                "tuple",
                                                "set",
                                                "pair",
                                                "expression_list"};
  return parent && kinds.count(parent.kind());
}

// A comparison operator's token, and its two operands; empty when chained.
struct Comparison {
  Node left, right;
  std::string_view op;
};

std::optional<Comparison> read_comparison(Node node) {
  if (node.named_child_count() != 2 || node.child_count() != 3) return std::nullopt;
  return Comparison{node.named_child(0), node.named_child(1), node.child(1).kind()};
}

class ExceptionClassChangeCheck final : public engine::PythonCheck {
 public:
  explicit ExceptionClassChangeCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    old_class_ = params.string("old_class");
    new_class_ = params.string("new_class");
    for (const std::string& name : params.strings("catch_all_classes")) catch_all_.insert(name);
    raised_by_ = params.strings("raised_by");
    errors_ = params.string("errors");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"call", "comparison_operator", "except_clause"};
  }

  void visit(Node node, PythonCheckContext& context) override {
    std::string_view kind = node.kind();
    if (kind == "call") {
      note_raising_call(node, context);
    } else if (kind == "comparison_operator") {
      check_type_test(node, context);
    } else {
      check_clause_order(node, context);
    }
  }

 private:
  // Try bodies are walked before their handlers, so a handler can ask whether its try
  // calls the library.
  void note_raising_call(Node call, PythonCheckContext& context) {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || std::none_of(raised_by_.begin(), raised_by_.end(),
                                [&](const std::string& module) { return is_under(*callee, module); })) {
      return;
    }
    for (Node child = call, parent = call.parent(); parent; child = parent, parent = parent.parent()) {
      std::string_view kind = parent.kind();
      if (kind == "function_definition" || kind == "class_definition") break;
      if (kind == "try_statement" && parent.field("body") == child) raising_tries_.insert(parent.start());
    }
  }

  [[nodiscard]] bool calls_library(Node try_statement) const {
    return try_statement && try_statement.kind() == "try_statement" && raising_tries_.count(try_statement.start());
  }

  // `e` when `expression` is `type(e)` or `e.__class__` and `e` names the exception caught by
  // a handler of a try that calls the library.
  Node caught_exception_of_type(Node expression, PythonCheckContext& context) const {
    expression = strip_parentheses(expression);
    Node name;
    if (expression.kind() == "call") {
      if (!is_builtin(context.model(), expression.field("function"), "type")) return {};
      CallArguments arguments(expression);
      if (!arguments.valid() || arguments.positional().size() != 1 || arguments.has_star_args() ||
          arguments.has_star_kwargs() || arguments.list().named_child_count() != 1) {
        return {};
      }
      name = arguments.positional().front();
    } else if (expression.kind() == "attribute" && expression.field("attribute").text() == "__class__") {
      name = expression.field("object");
    }
    if (!name || name.kind() != "identifier") return {};
    const python::Binding* binding = context.model().lookup(name.text(), name);
    if (binding == nullptr || binding->kind != python::BindingKind::Local) return {};
    // tree-sitter-python 0.23 parses `except E as e` as an `as_pattern` inside the clause.
    Node clause = binding->node;
    if (clause.kind() == "as_pattern") clause = clause.parent();
    if (!clause || clause.kind() != "except_clause") return {};
    return calls_library(clause.parent()) ? name : Node();
  }

  // `type(e).__name__` / `e.__class__.__name__`.
  Node caught_exception_of_type_name(Node expression, PythonCheckContext& context) const {
    expression = strip_parentheses(expression);
    if (expression.kind() != "attribute" || expression.field("attribute").text() != "__name__") return {};
    return caught_exception_of_type(expression.field("object"), context);
  }

  [[nodiscard]] bool is_string(Node node, const std::string& value) const {
    node = strip_parentheses(node);
    if (!node || node.kind() != "string") return false;
    std::string_view text = node.text();
    return text == "\"" + value + "\"" || text == "'" + value + "'";
  }

  void check_type_test(Node comparison_node, PythonCheckContext& context) {
    std::optional<Comparison> comparison = read_comparison(comparison_node);
    if (!comparison) return;
    const std::string_view op = comparison->op;
    const bool negated = op == "is not" || op == "!=" || op == "not in";
    Node exception;
    std::string classes;
    if (op == "is" || op == "is not" || op == "==" || op == "!=") {
      // Either operand order: `type(e) is RuntimeError`, `RuntimeError == type(e)`.
      for (auto [test, other] :
           {std::pair{comparison->left, comparison->right}, std::pair{comparison->right, comparison->left}}) {
        if (Node name = caught_exception_of_type(test, context);
            name && is_builtin(context.model(), other, old_class_)) {
          exception = name;
          classes = std::string(strip_parentheses(other).text());
          break;
        }
        if (op == "is" || op == "is not") continue;  // identity of strings is not a name test
        if (Node name = caught_exception_of_type_name(test, context); name && is_string(other, old_class_)) {
          if (context.model().lookup(old_class_, comparison_node) != nullptr) return;  // shadowed
          exception = name;
          classes = old_class_;
          break;
        }
      }
    } else if (op == "in" || op == "not in") {
      exception = caught_exception_of_type(comparison->left, context);
      if (!exception || !class_collection(comparison->right, context, classes)) return;
    }
    if (!exception) return;

    std::string replacement = "isinstance(" + std::string(exception.text()) + ", " + classes + ")";
    if (negated) {
      replacement = "not " + replacement;
      if (!accepts_bare_not(comparison_node.parent())) replacement = "(" + replacement + ")";
    }
    Diagnostic& diagnostic = context.report(
        rule(), comparison_node.range(),
        {{"problem", "exact type test of `" + std::string(exception.text()) + "` no longer matches " + errors_}});
    diagnostic.fixes.push_back(rule_fix(rule(), "Replace with `" + replacement + "`",
                                        {Edit::replace(comparison_node.range(), replacement)}, Applicability::Safe));
  }

  // `(RuntimeError, ValueError)` / `[...]` / `{...}` of plain class names including the old
  // class: `classes` becomes the isinstance() argument.
  bool class_collection(Node collection, PythonCheckContext& context, std::string& classes) const {
    collection = strip_parentheses(collection);
    std::string_view kind = collection.kind();
    if (kind != "tuple" && kind != "list" && kind != "set") return false;
    std::vector<std::string_view> names;
    bool has_old = false;
    for (uint32_t i = 0; i < collection.named_child_count(); ++i) {
      Node element = collection.named_child(i);
      if (element.kind() == "comment") continue;
      if (element.kind() != "identifier" && element.kind() != "attribute") return false;
      has_old = has_old || is_builtin(context.model(), element, old_class_);
      names.push_back(element.text());
    }
    if (!has_old) return false;
    if (names.size() == 1) {
      classes = std::string(names.front());
      return true;
    }
    std::string joined(1, '(');
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0) joined += ", ";
      joined += names[i];
    }
    joined += ')';
    classes = std::move(joined);
    return true;
  }

  // The classes an except clause catches: a bare `except:` catches everything.
  [[nodiscard]] bool catches(Node clause, const std::set<std::string>& names, PythonCheckContext& context) const {
    Node classes = handler_classes(clause);
    if (!classes) return true;
    for (Node type : class_elements(classes)) {
      for (const std::string& name : names) {
        if (is_builtin(context.model(), type, name)) return true;
      }
    }
    return false;
  }

  void check_clause_order(Node clause, PythonCheckContext& context) {
    Node try_statement = clause.parent();
    if (!calls_library(try_statement) || !clause.field("value")) return;
    std::set<std::string> broad = catch_all_;
    broad.insert(old_class_);
    if (!catches(clause, {new_class_}, context) || catches(clause, broad, context)) return;
    bool before = true;
    bool earlier_broad = false;
    bool later_broad = false;
    for (uint32_t i = 0; i < try_statement.named_child_count(); ++i) {
      Node other = try_statement.named_child(i);
      if (other.kind() != "except_clause") continue;
      if (other == clause) {
        before = false;
        continue;
      }
      if (!catches(other, broad, context)) continue;
      (before ? earlier_broad : later_broad) = true;
    }
    // An earlier handler of the old class already took these errors on both versions.
    if (earlier_broad || !later_broad) return;
    Node value = clause.field("value");
    context.report(rule(), {clause.start(), value.end()},
                   {{"problem", "`except " + single_line(value) + "` comes before a handler of `" + old_class_ +
                                    "` and now catches " + errors_ + " first"}});
  }

  std::string old_class_, new_class_;
  std::set<std::string> catch_all_;
  std::vector<std::string> raised_by_;  // modules whose calls raise the changed errors
  std::string errors_;                  // what the messages call those errors
  std::set<uint32_t> raising_tries_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_exception_class_change_check(const engine::RuleSpec& rule) {
  return std::make_unique<ExceptionClassChangeCheck>(rule);
}

}  // namespace torchmigrate::checks
