// SPDX-License-Identifier: MIT
// TM305: `torch.segment_reduce` has no CUDA kernel in the Windows CUDA 12.9 builds of torch 2.8.
// Every use site (attribute chain or imported name) is reported; there is no fix.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

class SegmentReduceCheck final : public engine::PythonCheck {
 public:
  explicit SegmentReduceCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("functions")) functions_.insert(name);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"attribute", "identifier"}; }
  // A finding is one name: what it resolves to and the kind of its binding.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "identifier") {
      if (!is_reference_identifier(node, context.parent())) return;
      // Names from `from torch import segment_reduce`; an alias (`f = torch.segment_reduce`) is
      // reported where it is assigned, not again at each call.
      const python::Binding* binding = context.model().lookup(node.text(), node);
      if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    }
    std::optional<std::string> qualified = context.model().resolve(node);
    if (!qualified || !functions_.count(*qualified)) return;
    context.report(rule(), node.range(), {{"name", *qualified}});
  }

 private:
  std::set<std::string, std::less<>> functions_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_segment_reduce_check(const engine::RuleSpec& rule) {
  return std::make_unique<SegmentReduceCheck>(rule);
}

}  // namespace torchmigrate::checks
