// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/rule_fix.hpp"

#include <utility>

namespace torchmigrate::checks {

Applicability rule_applicability(const engine::RuleSpec& rule, Applicability fallback) {
  return rule.fix_applicability.value_or(fallback);
}

Fix rule_fix(const engine::RuleSpec& rule, std::string title, std::vector<Edit> edits, Applicability fallback) {
  Fix fix;
  fix.title = std::move(title);
  fix.edits = std::move(edits);
  fix.applicability = rule_applicability(rule, fallback);
  fix.requirements = rule.fix_requirements;
  return fix;
}

}  // namespace torchmigrate::checks
