// SPDX-License-Identifier: MIT
// Family `sequence-dict-values`: a call that passes, as `keyword`, a dict display (written in the
// call or bound once to a name in the same scope) whose values must each be one item where a
// release accepted a list or tuple of them (TM122: `torch.onnx.export(custom_translation_table=
// {op: [f, g]})` raises TypeError in torch 2.11). A one-element list or tuple becomes its element;
// longer ones are reported without a fix, since merging them needs code.
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// The dict display `value` is or names: a name counts when the one assignment that reaches it,
// in the same scope, binds a dict display.
Node dict_display(const python::SemanticModel& model, Node value) {
  value = strip_parentheses(value);
  if (!value) return {};
  if (value.kind() == "dictionary") return value;
  if (value.kind() != "identifier") return {};
  std::vector<const python::Binding*> bindings = model.reaching_bindings(value.text(), value);
  if (bindings.size() != 1 || bindings.front()->node == Node{}) return {};
  Node statement = bindings.front()->node;
  if (statement.kind() != "assignment") return {};
  Node left = statement.field("left");
  if (!left || left.kind() != "identifier" || left.text() != value.text()) return {};
  if (model.scope_at(statement.start()) != model.scope_at(value.start())) return {};
  Node right = strip_parentheses(statement.field("right"));
  return right && right.kind() == "dictionary" ? right : Node{};
}

// The elements of a list or tuple display, without comments; empty for anything else.
std::vector<Node> sequence_elements(Node value) {
  std::vector<Node> elements;
  if (!value || (value.kind() != "list" && value.kind() != "tuple")) return elements;
  for (uint32_t i = 0; i < value.named_child_count(); ++i) {
    Node element = value.named_child(i);
    if (element.kind() != "comment") elements.push_back(element);
  }
  return elements;
}

class SequenceDictValuesCheck final : public engine::PythonCheck {
 public:
  explicit SequenceDictValuesCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) {
      callees_.insert(callee);
      last_names_.insert(callee.substr(callee.rfind('.') + 1));
    }
    keyword_ = params.string("keyword");
    params.finish();  // a key this check does not read is an error, at build time
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  // Not statement-local: the dict may be bound by an earlier statement.

  void visit(Node call, PythonCheckContext& context) override {
    if (!callee_may_end_in(call, last_names_)) return;
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !callees_.contains(*callee)) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    Node table = dict_display(context.model(), arguments.keyword_value(keyword_));
    if (!table) return;
    for (uint32_t i = 0; i < table.named_child_count(); ++i) {
      Node pair = table.named_child(i);
      if (pair.kind() == "pair") check_pair(pair, *callee, context);
    }
  }

 private:
  void check_pair(Node pair, const std::string& callee, PythonCheckContext& context) const {
    Node value = pair.field("value");
    std::vector<Node> elements = sequence_elements(strip_parentheses(value));
    if (elements.empty()) return;
    bool single = elements.size() == 1 && elements.front().kind() != "list_splat";
    std::string_view kind = strip_parentheses(value).kind();
    std::string sequence = elements.size() == 1 ? "a one-element " + std::string(kind)
                                                : "a " + std::string(kind) + " of " + std::to_string(elements.size());
    Diagnostic& diagnostic =
        context.report(rule(), value.range(),
                       {{"callee", callee},
                        {"keyword", keyword_},
                        {"key", single_line(pair.field("key"))},
                        {"sequence", sequence}});
    if (!single) {
      diagnostic.message += "; merge them into one function, which no fix can write";
      return;
    }
    std::string element(elements.front().text());
    diagnostic.fixes.push_back(rule_fix(rule(), "Replace `" + single_line(value) + "` with `" + element + "`",
                                        {Edit::replace(value.range(), element)}, Applicability::Safe));
  }

  std::set<std::string, std::less<>> callees_;
  std::set<std::string, std::less<>> last_names_;  // of `callees_`
  std::string keyword_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_sequence_dict_values_check(const engine::RuleSpec& rule) {
  return std::make_unique<SequenceDictValuesCheck>(rule);
}

}  // namespace torchmigrate::checks
