// SPDX-License-Identifier: MIT
// A check's fix as its catalog entry describes it: the rule's fix safety (`fix.applicability`)
// and what the fixed code requires (`fix.requires`). Checks build their fixes here, so the safety
// a fix gets when the catalog names none is an argument visible at every call.
#pragma once

#include <string>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::checks {

// The rule's fix safety, or `fallback` when the catalog gives none (`"applicability": "none"`).
[[nodiscard]] Applicability rule_applicability(const engine::RuleSpec& rule, Applicability fallback);

// A fix of `rule` with `title` and `edits`, the rule's safety (`fallback` when the catalog gives
// none) and its requirements. A check may make the fix less safe afterwards (least_safe), never
// safer.
[[nodiscard]] Fix rule_fix(const engine::RuleSpec& rule, std::string title, std::vector<Edit> edits,
                           Applicability fallback);

}  // namespace torchmigrate::checks
