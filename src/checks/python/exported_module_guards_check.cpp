// SPDX-License-Identifier: MIT
// Family `exported-module-guards`: the module an exported program's `.module()` returns has
// changed shape and error class (TM210: torch 2.9 adds a `_guards_fn` submodule, called from a
// new `call_module` node, that raises AssertionError where a pre-hook raised RuntimeError). It
// reports walks over that module's graph or submodules, and handlers or test expectations of
// the old class around a call of the module.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/exception_widening.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

void replace_all(std::string& text, std::string_view key, const std::string& value) {
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
    text.replace(at, key.size(), value);
  }
}

// True when a comparison under `root` tests `<x>.op` against the string `op`: the walk looks
// at one kind of node only.
bool filters_on_op(Node root, std::string_view op) {
  bool found = false;
  python::for_each_node(root, [&](Node node) {
    if (node.kind() != "comparison_operator") return python::WalkStep::Enter;
    bool tests_op = false;
    bool names_op = false;
    for (uint32_t i = 0; i < node.named_child_count(); ++i) {
      Node operand = strip_parentheses(node.named_child(i));
      tests_op = tests_op || (operand.kind() == "attribute" && operand.field("attribute").text() == "op");
      std::string_view text = operand.text();
      names_op =
          names_op || (operand.kind() == "string" && text.size() == op.size() + 2 && text.substr(1, op.size()) == op);
    }
    found = tests_op && names_op;
    return found ? python::WalkStep::Stop : python::WalkStep::Skip;
  });
  return found;
}

class ExportedModuleGuardsCheck final : public engine::PythonCheck {
 public:
  explicit ExportedModuleGuardsCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("exporters")) exporters_.insert(name);
    method_ = params.string("method");
    keyword_ = params.string("keyword");
    keep_old_value_ = params.string("keep_old_value");
    for (const std::string& name : params.strings("walk_methods")) walk_methods_.insert(name);
    filter_op_ = params.string("filter_op");
    Widening widening = read_widening(params);
    change_ = std::move(widening.change);
    trusted_modules_ = std::move(widening.trusted_modules);
    walk_problem_ = params.string("walk_problem");
    raise_problem_ = params.string("raise_problem");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"attribute", "call"}; }

  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "attribute") {
      check_nodes_walk(node, context);
      return;
    }
    Node function = node.field("function");
    if (function && function.kind() == "attribute" && walk_methods_.count(function.field("attribute").text())) {
      if (Node module_call = exported_module(function.field("object"), context.model())) {
        report_walk(node, module_call, context);
      }
      return;
    }
    check_module_call(node, context);
  }

 private:
  // The `<ep>.module()` call that `expression` is, or that the local it names was bound to in
  // the same function; `<ep>` is an exporter's call or a local bound to one. Null otherwise.
  Node exported_module(Node expression, const python::SemanticModel& model) const {
    expression = strip_parentheses(expression);
    if (!expression) return {};
    if (expression.kind() == "identifier") expression = bound_value(expression, model);
    if (!expression || expression.kind() != "call") return {};
    Node function = expression.field("function");
    if (!function || function.kind() != "attribute" || function.field("attribute").text() != method_) return {};
    CallArguments arguments(expression);
    // Any argument (`check_guards=False`, `**options`) says the author chose the behaviour.
    if (!arguments.valid() || arguments.list().named_child_count() != 0) return {};
    Node program = strip_parentheses(function.field("object"));
    if (program && program.kind() == "identifier") program = bound_value(program, model);
    if (!program || program.kind() != "call") return {};
    std::optional<std::string> exporter = model.resolve_call(program);
    return exporter && exporters_.count(*exporter) ? expression : Node();
  }

  // The right side of the plain assignment that binds `name`, in the function that uses it.
  static Node bound_value(Node name, const python::SemanticModel& model) {
    const python::Binding* binding = model.lookup(name.text(), name);
    if (binding == nullptr || binding->kind != python::BindingKind::Local) return {};
    Node statement = binding->node;
    if (statement.kind() != "assignment" || statement.field("left").kind() != "identifier") return {};
    if (enclosing_function(statement) != enclosing_function(name)) return {};
    return strip_parentheses(statement.field("right"));
  }

  // `for n in gm.graph.nodes`, `[... for n in gm.graph.nodes]`, `len(list(gm.graph.nodes))`.
  void check_nodes_walk(Node attribute, PythonCheckContext& context) {
    if (attribute.field("attribute").text() != "nodes") return;
    Node graph = strip_parentheses(attribute.field("object"));
    if (graph.kind() != "attribute" || graph.field("attribute").text() != "graph") return;
    Node parent = context.parent();
    if (!parent) return;
    std::string_view kind = parent.kind();
    if (kind == "for_statement" || kind == "for_in_clause") {
      if (parent.field("right") != attribute) return;
      Node scope = kind == "for_statement" ? parent.field("body") : parent.parent();
      if (filters_on_op(scope, filter_op_)) return;
    } else if (kind == "argument_list") {
      Node call = parent.parent();
      static const std::set<std::string_view> kIterating{"list",   "tuple",    "len", "enumerate",
                                                         "sorted", "reversed", "set", "iter"};
      Node function = call ? call.field("function") : Node();
      if (!function || function.kind() != "identifier" || !kIterating.count(function.text()) ||
          !is_builtin(context.model(), function, function.text())) {
        return;
      }
    } else {
      return;
    }
    if (Node module_call = exported_module(graph.field("object"), context.model())) {
      report_walk(attribute, module_call, context);
    }
  }

  void report_walk(Node use, Node module_call, PythonCheckContext& context) {
    if (!walked_.insert(module_call.start()).second) return;
    std::string problem = walk_problem_;
    replace_all(problem, "{use}", code_span(single_line(use)));
    replace_all(problem, "{module}", code_span(single_line(module_call)));
    Diagnostic& diagnostic = context.report(rule(), use.range(), {{"problem", problem}});
    CallArguments arguments(module_call);
    Fix fix = rule_fix(rule(), "Add `" + keyword_ + "=" + keep_old_value_ + "` to keep the 2.8 module",
                       {arguments.add_keyword(keyword_, keep_old_value_)}, Applicability::Safe);
    fix.policy = FixPolicy::KeepOld;
    diagnostic.fixes.push_back(std::move(fix));
  }

  void check_module_call(Node call, PythonCheckContext& context) {
    const python::SemanticModel& model = context.model();
    if (Node module_call = exported_module(call.field("function"), model)) {
      if (std::optional<MissedCatch> missed = find_missed_catch(model, call, change_)) {
        report_raise(*missed, module_call, context);
      }
      return;
    }
    // `assertRaises(RuntimeError, gm, x)`: the module is passed, not called.
    std::optional<TestAssertion> assertion = read_test_assertion(model, call);
    if (!assertion || !assertion->callable) return;
    if (Node module_call = exported_module(assertion->callable, model)) {
      if (std::optional<MissedCatch> missed = missed_by_assertion(model, *assertion, change_)) {
        report_raise(*missed, module_call, context);
      }
    }
  }

  void report_raise(const MissedCatch& missed, Node module_call, PythonCheckContext& context) {
    if (!raised_.insert(missed.site.start()).second) return;
    const python::SemanticModel& model = context.model();
    bool fixable = widening_offered(missed, [&](Node call) {
      return exported_module(call, model) || exported_module(call.field("function"), model) ||
             calls_under(model, call, trusted_modules_);
    });
    std::string problem = raise_problem_;
    replace_all(problem, "{site}", describe_catch(missed));
    replace_all(problem, "{module}", code_span(single_line(module_call)));
    if (!fixable) problem += kWideningWithheld;
    Diagnostic& diagnostic = context.report(rule(), catch_range(missed), {{"problem", problem}});
    diagnostic.severity = Severity::Warning;
    if (!fixable) return;
    Fix fix = widening_fix(rule(), missed, change_.new_class);
    fix.requirements = {};  // builtin classes only: works on every release
    diagnostic.fixes.push_back(std::move(fix));
  }

  std::set<std::string> exporters_;
  std::string method_, keyword_, keep_old_value_;
  std::set<std::string, std::less<>> walk_methods_;
  std::string filter_op_;
  ClassChange change_;
  std::vector<std::string> trusted_modules_;
  std::string walk_problem_, raise_problem_;
  std::set<uint32_t> walked_, raised_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_exported_module_guards_check(const engine::RuleSpec& rule) {
  return std::make_unique<ExportedModuleGuardsCheck>(rule);
}

}  // namespace torchmigrate::checks
