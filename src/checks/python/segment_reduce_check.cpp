// SPDX-License-Identifier: MIT
// Family `segment-reduce`: every use site (attribute chain or imported name) of the listed
// functions is reported, without a fix (TM305: `torch.segment_reduce`; TM312, TM320:
// TorchScript). Optionally (TM320) also calls of listed methods on what a listed function
// returned (`torch.jit.script(m)._save_for_lite_interpreter(...)`), and an error instead of the
// catalog's severity where the project makes the warning one (warning_escalation.hpp).
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/warning_escalation.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;
using Names = std::set<std::string, std::less<>>;

// Methods whose receiver is known to be what one of `results_of` returned.
struct ResultMethods {
  Names results_of;
  Names methods;
  std::string warning;
  std::string advice;
};

class SegmentReduceCheck final : public engine::PythonCheck {
 public:
  explicit SegmentReduceCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("functions")) functions_.insert(name);
    if (params.has("warning")) warning_ = params.string("warning");
    if (params.has("advice")) advice_ = params.string("advice");
    if (params.has("result_methods")) read_result_methods(params.object("result_methods"));
    if (params.has("escalation")) escalation_ = WarningEscalation(params.object("escalation"));
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    if (methods_.methods.empty()) return {"attribute", "identifier"};
    return {"attribute", "identifier", "call"};
  }
  // A finding is one name, or one call and the binding of its receiver: what they resolve to
  // and the kind of their binding. The receiver's binding may lie in another statement.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return methods_.methods.empty(); }
  // A use names the function (`torch.jit.script`, `jit.script`, `script` imported, an alias of
  // it); a method call's receiver would be followed through its bindings' values, which a slice
  // does not keep.
  [[nodiscard]] std::optional<std::vector<std::string>> slice_anchors() const override {
    if (!methods_.methods.empty()) return std::nullopt;
    std::vector<std::string> anchors;
    for (const std::string& function : functions_) anchors.push_back(function.substr(function.rfind('.') + 1));
    return anchors;
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    return escalation_ ? escalation_->facts_read() : engine::FactsRead{};
  }

  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "call") return visit_call(node, context);
    if (node.kind() == "identifier") {
      if (!is_reference_identifier(node, context.parent())) return;
      // Names from `from torch import segment_reduce`; an alias (`f = torch.segment_reduce`) is
      // reported where it is assigned, not again at each call.
      const python::Binding* binding = context.model().lookup(node.text(), node);
      if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    }
    std::optional<std::string> qualified = context.model().resolve(node);
    if (!qualified || !functions_.count(*qualified)) return;
    report(node, *qualified, *qualified, warning_, advice_, context);
  }

 private:
  void read_result_methods(const Params& params) {
    for (const std::string& name : params.strings("results_of")) methods_.results_of.insert(name);
    for (const std::string& name : params.strings("methods")) methods_.methods.insert(name);
    methods_.warning = params.string("warning");
    methods_.advice = params.string("advice");
    params.finish();
  }

  // `<receiver>.<method>(...)` where every binding that reaches the receiver holds the result
  // of a call of `results_of`.
  void visit_call(Node call, PythonCheckContext& context) {
    Node function = call.field("function");
    if (!function || function.kind() != "attribute") return;
    std::string method(function.field("attribute").text());
    if (!methods_.methods.contains(method) || !returned_by_listed(function.field("object"), context)) return;
    report(function.field("attribute"), "ScriptModule." + method, method, methods_.warning, methods_.advice, context);
  }

  bool returned_by_listed(Node receiver, PythonCheckContext& context) const {
    receiver = strip_parentheses(receiver);
    if (!receiver) return false;
    if (receiver.kind() == "call") {
      std::optional<std::string> callee = context.model().resolve_call(receiver);
      return callee && methods_.results_of.contains(*callee);
    }
    if (receiver.kind() != "identifier") return false;
    std::vector<const python::Binding*> bindings = context.model().reaching_bindings(receiver.text(), receiver);
    if (bindings.empty()) return false;
    return std::all_of(bindings.begin(), bindings.end(), [&](const python::Binding* binding) {
      if (binding->kind != python::BindingKind::Local || !binding->node || binding->node.kind() != "assignment") {
        return false;
      }
      Node left = binding->node.field("left");
      Node right = strip_parentheses(binding->node.field("right"));
      return left && left.kind() == "identifier" && left.text() == receiver.text() && right && right.kind() == "call" &&
             returned_by_listed(right, context);
    });
  }

  void report(Node at, const std::string& name, const std::string& function, const std::string& warning,
              const std::string& advice, PythonCheckContext& context) {
    std::map<std::string, std::string> values{{"name", name}, {"warning", warning}, {"advice", advice}};
    std::optional<Severity> severity;
    if (escalation_) {
      Escalated escalated = escalation_->judge(function, context.settings());
      values["escalation"] = std::move(escalated.text);
      severity = escalated.severity;
    }
    Diagnostic& diagnostic = context.report(rule(), at.range(), values);
    if (severity) diagnostic.severity = *severity;
  }

  Names functions_;
  std::string warning_, advice_;
  ResultMethods methods_;
  std::optional<WarningEscalation> escalation_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_segment_reduce_check(const engine::RuleSpec& rule) {
  return std::make_unique<SegmentReduceCheck>(rule);
}

}  // namespace torchmigrate::checks
