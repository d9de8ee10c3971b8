// SPDX-License-Identifier: MIT
// Applies fixes to one file's text in memory: non-overlapping edits per pass, passes repeated
// until nothing changes, and a rollback when the result would no longer parse.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/linter.hpp"

namespace torchmigrate::engine {

inline constexpr int kMaxFixPasses = 10;

struct AppliedFix {
  std::string code;
  std::string title;
  uint32_t line = 0;  // 1-based, in the text the fix was applied to
};

struct FixOutcome {
  std::string text;                     // the fixed text (the original when rolled back)
  std::vector<AppliedFix> applied;      // in application order
  std::vector<Diagnostic> remaining;    // findings of the final text
  bool hit_pass_limit = false;
  std::optional<Diagnostic> rollback;   // set when fixing broke the syntax and was undone
};

// The fix of `diagnostic` that these settings would pick (its policy), or nullptr.
const Fix* chosen_fix(const Diagnostic& diagnostic, const Settings& settings);
// Whether `--fix` with these settings applies `fix`.
bool will_apply(const Fix& fix, const Settings& settings);

FixOutcome fix_file(const Linter& linter, const SourceFile& file);

}  // namespace torchmigrate::engine
