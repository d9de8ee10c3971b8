// SPDX-License-Identifier: MIT
// TM106: bodies of higher-order ops (torch.cond branches, while_loop, scan, associative_scan,
// map, nested_compile_region functions) may no longer return an input, a view of one, the same
// tensor twice, or mutate an input in place. Bodies are lambdas or defs of the same file.
#include "torchmigrate/checks/python_checks.hpp"

#include <map>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/returned_alias.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

struct BodyArgument {
  size_t index = 0;
  std::string keyword;
};

class HopBodyAliasesInputCheck final : public engine::PythonCheck {
 public:
  explicit HopBodyAliasesInputCheck(const engine::RuleSpec& rule) : HopBodyAliasesInputCheck(rule, Params(rule)) {}

  HopBodyAliasesInputCheck(const engine::RuleSpec& rule, const Params& params)
      : PythonCheck(rule), matcher_(ReturnedAliasMatcher::from_params(params)) {
    for (const Params& op : params.objects("ops")) {
      std::vector<BodyArgument> bodies;
      for (const Params& body : op.objects("bodies")) {
        bodies.push_back({body.integer("index"), body.string("keyword")});
        body.finish();
      }
      for (const std::string& callee : op.strings("callees")) ops_[callee] = bodies;
      op.finish();
    }
    for (const std::string& decorator : params.strings("decorators")) decorators_.insert(decorator);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"call", "decorated_definition", "return_statement", "assignment", "augmented_assignment"};
  }

  void visit(Node node, PythonCheckContext& context) override {
    std::string_view kind = node.kind();
    if (kind == "call") {
      note_hop_call(node, context);
      note_method_mutation(node);
    } else if (kind == "decorated_definition") {
      note_decorated(node, context);
    } else if (kind == "return_statement") {
      returns_.push_back(node);
    } else if (kind == "assignment" || kind == "augmented_assignment") {
      note_assignment_mutation(node);
    }
  }

  void finish(PythonCheckContext& context) override {
    std::set<uint32_t> done;
    for (const auto& [function, op] : bodies_) {
      if (!done.insert(function.start()).second) continue;
      if (function.kind() == "lambda") {
        check_returned(function.field("body"), function, op, context);
      } else {
        for (Node statement : returns_) {
          if (!(enclosing_function(statement) == function) || statement.named_child_count() == 0) continue;
          check_returned(statement.named_child(0), function, op, context);
        }
      }
      for (const auto& [statement, target] : mutations_) {
        if (!(enclosing_function(statement) == function) || !is_parameter_of(context.model(), target, function)) continue;
        Diagnostic& diagnostic = context.report(
            rule(), statement.range(),
            {{"problem", "modifies its input `" + std::string(target.text()) + "` in place"}, {"op", op}});
        Fix fix = rule_fix(
            rule(),
            "Work on `" + std::string(target.text()) + ".clone()` or build a new tensor instead of modifying the input",
            {}, Applicability::DisplayOnly);
        fix.applicability = Applicability::DisplayOnly;  // advice with no edit, whatever the catalog's safety
        diagnostic.fixes.push_back(std::move(fix));
      }
    }
  }

 private:
  void note_hop_call(Node call, PythonCheckContext& context) {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee) return;
    auto op = ops_.find(*callee);
    if (op == ops_.end()) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    for (const BodyArgument& body : op->second) {
      Node argument = arguments.keyword_value(body.keyword);
      if (!argument && body.index < arguments.positional().size()) argument = arguments.positional()[body.index];
      if (Node function = function_argument(argument, context.model())) bodies_.emplace_back(function, *callee);
    }
  }

  void note_decorated(Node definition, PythonCheckContext& context) {
    Node function = definition.field("definition");
    if (!function || function.kind() != "function_definition") return;
    for (Node expression : decorator_expressions(definition)) {
      // `@nested_compile_region` and `@nested_compile_region()`.
      std::optional<std::string> name = expression.kind() == "call" ? context.model().resolve_call(expression)
                                                                     : context.model().resolve(expression);
      if (name && decorators_.count(*name)) bodies_.emplace_back(function, *name);
    }
  }

  // `p.add_(...)`, `p[i].zero_()`: the identifier whose tensor is modified, if any.
  void note_method_mutation(Node call) {
    Node function = call.field("function");
    if (function.kind() != "attribute") return;
    std::string_view method = function.field("attribute").text();
    if (method.size() < 2 || !method.ends_with('_') || method.ends_with("__")) return;
    if (Node target = mutated_root(function.field("object"))) mutations_.emplace_back(call, target);
  }

  // `p[...] = v`, `p[...] += v`, `p += v`.
  void note_assignment_mutation(Node statement) {
    Node left = statement.field("left");
    if (!left) return;
    if (left.kind() == "subscript") {
      if (Node target = mutated_root(left)) mutations_.emplace_back(statement, target);
    } else if (left.kind() == "identifier" && statement.kind() == "augmented_assignment") {
      mutations_.emplace_back(statement, left);
    }
  }

  static Node mutated_root(Node expression) {
    expression = strip_parentheses(expression);
    while (expression && expression.kind() == "subscript") expression = strip_parentheses(expression.field("value"));
    return expression && expression.kind() == "identifier" ? expression : Node();
  }

  void check_returned(Node expression, Node function, const std::string& op, PythonCheckContext& context) {
    for (const ReturnedAlias& alias : matcher_.find(expression, function, context.model())) {
      report_clone(alias.expression, alias.problem(), op, context);
    }
  }

  void report_clone(Node expression, const std::string& problem, const std::string& op, PythonCheckContext& context) {
    Diagnostic& diagnostic = context.report(rule(), expression.range(), {{"problem", problem}, {"op", op}});
    diagnostic.fixes.push_back(rule_fix(rule(), "Return `" + std::string(expression.text()) + ".clone()`",
                                        {Edit::insert(expression.end(), ".clone()")}, Applicability::Safe));
  }

  std::map<std::string, std::vector<BodyArgument>> ops_;
  std::set<std::string> decorators_;
  ReturnedAliasMatcher matcher_;
  std::vector<std::pair<Node, std::string>> bodies_;  // function, op that runs it
  std::vector<Node> returns_;
  std::vector<std::pair<Node, Node>> mutations_;  // statement or call, modified identifier
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_hop_body_aliases_input_check(const engine::RuleSpec& rule) {
  return std::make_unique<HopBodyAliasesInputCheck>(rule);
}

}  // namespace torchmigrate::checks
