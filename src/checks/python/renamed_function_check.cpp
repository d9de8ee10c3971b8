// SPDX-License-Identifier: MIT
// Family `renamed-function`: a torch function replaced by another name, optionally with its
// result negated (`definitely_false(x)` is `not guard_or_true(x)`).
#include "torchmigrate/checks/python_checks.hpp"

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/renamed_references.hpp"

namespace torchmigrate::checks {
namespace {

using python::Node;

// Contexts where `not f(x)` would bind differently than the call it replaces.
bool needs_parentheses_for_not(Node call) {
  Node parent = call.parent();
  if (!parent) return false;
  std::string_view kind = parent.kind();
  if (kind == "comparison_operator" || kind == "binary_operator" || kind == "unary_operator" ||
      kind == "await" || kind == "call") {
    return true;
  }
  if (kind == "attribute") return parent.field("object") == call;
  if (kind == "subscript") return parent.field("value") == call;
  return false;
}

class RenamedFunctionCheck final : public RenamedReferencesCheck {
 public:
  explicit RenamedFunctionCheck(const engine::RuleSpec& rule) : RenamedReferencesCheck(rule, {}) {
    Params params(rule);
    std::vector<RenameTarget> targets;
    for (const Params& rename : params.objects("renames")) {
      bool negate = rename.boolean("negate", false);
      std::string to = rename.string("to");
      targets.push_back({rename.string("from"), to, negate ? "not " + to + "(...)" : to + "(...)"});
      negate_.push_back(negate);
      rename.finish();
    }
    params.finish();
    set_targets(std::move(targets));
  }

 private:
  std::optional<std::vector<Edit>> rewrite_call(Node call, size_t target,
                                                engine::PythonCheckContext& /*context*/) const override {
    if (!negate_[target]) return std::vector<Edit>{};
    if (needs_parentheses_for_not(call)) {
      return std::vector<Edit>{Edit::insert(call.start(), "(not "), Edit::insert(call.end(), ")")};
    }
    return std::vector<Edit>{Edit::insert(call.start(), "not ")};
  }

  [[nodiscard]] bool value_rename_keeps_behaviour(size_t target) const override { return !negate_[target]; }

  std::vector<bool> negate_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_renamed_function_check(const engine::RuleSpec& rule) {
  return std::make_unique<RenamedFunctionCheck>(rule);
}

}  // namespace torchmigrate::checks
