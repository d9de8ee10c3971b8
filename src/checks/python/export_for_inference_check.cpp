// SPDX-License-Identifier: MIT
// TM101: `torch.export.export_for_inference(...)` is gone; the same program is
// `export_for_training(..., strict=True).run_decompositions(decomp_table=...)`.
#include "torchmigrate/checks/python_checks.hpp"

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/renamed_references.hpp"

namespace torchmigrate::checks {
namespace {

using python::Node;

class ExportForInferenceCheck final : public RenamedReferencesCheck {
 public:
  explicit ExportForInferenceCheck(const engine::RuleSpec& rule)
      : RenamedReferencesCheck(rule, read_targets(rule)) {}

 private:
  static std::vector<RenameTarget> read_targets(const engine::RuleSpec& rule) {
    Params params(rule);
    std::vector<RenameTarget> targets;
    for (const std::string& name : params.strings("callees")) targets.push_back({name, params.string("new_name"), {}});
    params.finish();
    return targets;
  }

  std::optional<std::vector<Edit>> rewrite_call(Node call, size_t /*target*/,
                                                engine::PythonCheckContext& /*context*/) const override {
    CallArguments arguments(call);
    // mod, args, kwargs are the only positional parameters; anything else is not a call we know.
    if (!arguments.valid() || arguments.has_star_args() || arguments.has_star_kwargs() ||
        arguments.positional().size() > 3) {
      return std::nullopt;
    }
    std::vector<Edit> edits;
    std::string decompositions;
    if (Node decomp = arguments.keyword("decomp_table")) {
      decompositions = std::string(decomp.text());
      edits.push_back(arguments.remove_argument(decomp));
    }
    // export_for_inference defaulted to strict=True; 2.8's export_for_training defaults to False.
    if (!arguments.keyword("strict")) edits.push_back(arguments.add_keyword("strict", "True"));
    edits.push_back(Edit::insert(call.end(), ".run_decompositions(" + decompositions + ")"));
    return edits;
  }

  [[nodiscard]] bool value_rename_keeps_behaviour(size_t /*target*/) const override { return false; }
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_export_for_inference_check(const engine::RuleSpec& rule) {
  return std::make_unique<ExportForInferenceCheck>(rule);
}

}  // namespace torchmigrate::checks
