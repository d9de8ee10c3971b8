// SPDX-License-Identifier: MIT
// The codes of file problems (TM900-TM902, core/diagnostic.hpp): no rule of the catalog finds
// them (no check, no release), but selection, per-file ignores, noqa and `torchmigrate rule` take
// them like rule codes, as Ruff's E902.
#pragma once

#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"

namespace torchmigrate::engine {

// TM900 io-error, TM901 parse-error, TM902 internal-error: code, name, summary and docs (what,
// why, limitations); enabled by default.
const std::vector<RuleSpec>& internal_rules();

// The internal code of `code_or_name` ("TM901", "tm901", "parse-error"), or null.
const RuleSpec* find_internal_rule(std::string_view code_or_name);

// Drops the file problems that `selection` ignores (`ignore = ["TM901"]`, a per-file ignore); a
// `select` that does not name them keeps them.
void drop_deselected_file_problems(std::vector<Diagnostic>& diagnostics, const RuleSelection& selection);

}  // namespace torchmigrate::engine
