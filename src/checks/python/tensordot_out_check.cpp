// SPDX-License-Identifier: MIT
// TM108: `torch.tensordot(..., out=t)` raises in 2.8 when `t` requires grad and has to be
// resized; reported (keyword or fourth positional argument), never fixed.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

using python::Node;

class TensordotOutCheck final : public engine::PythonCheck {
 public:
  explicit TensordotOutCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) callees_.insert(callee);
    out_position_ = params.integer("out_position");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  // A finding is one call: what its callee resolves to and its own arguments.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node call, engine::PythonCheckContext& context) override {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !callees_.count(*callee)) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    Node out = arguments.keyword_value("out");
    if (!out && arguments.positional().size() > out_position_) out = arguments.positional()[out_position_];
    // `out=None` is the default: nothing is written in place.
    if (!out || is_literal(out, "None")) return;
    context.report(rule(), call.range(), {{"callee", *callee}});
  }

 private:
  std::set<std::string> callees_;
  size_t out_position_ = 0;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_tensordot_out_check(const engine::RuleSpec& rule) {
  return std::make_unique<TensordotOutCheck>(rule);
}

}  // namespace torchmigrate::checks
