// SPDX-License-Identifier: MIT
// Applies fixes to one file's text in memory: non-overlapping edits per pass, passes repeated
// until nothing changes, inserted line breaks in the file's own style, the final-newline state
// kept, and a rollback of the whole file when a pass would break the syntax or never settles.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace torchmigrate::engine {

// Passes after which fixing stops; a file still changing then is rolled back and reported.
inline constexpr int kMaxFixPasses = 10;

struct AppliedFix {
  std::string code;
  std::string title;
  uint32_t line = 0;  // 1-based, in the text the fix was applied to
};

struct FixOutcome {
  std::string text;                   // the fixed text (the original when rolled back)
  std::vector<AppliedFix> applied;    // in application order; empty when rolled back
  std::vector<Diagnostic> remaining;  // findings of `text`
  // Internal errors (code TM902) about this file's fixing: a rollback, the pass cap, a check
  // that produced an invalid edit. Each names the rule responsible.
  std::vector<Diagnostic> problems;
  bool hit_pass_limit = false;
  std::optional<Diagnostic> rollback;  // set when fixing was undone (also listed in `problems`)
};

// The fix of `diagnostic` that these settings would pick (its policy), or nullptr.
const Fix* chosen_fix(const Diagnostic& diagnostic, const Settings& settings);
// Whether `--fix` with these settings applies `fix`.
bool will_apply(const Fix& fix, const Settings& settings);

// `edit` with every bare "\n" of its replacement written in the line-ending style of the line
// it lands on in `text` (so a CRLF file, or the CRLF part of a mixed file, stays CRLF).
Edit adapt_line_endings(Edit edit, std::string_view text);

// Withholds every fix that would make `file` import itself: one whose `imported_modules` name
// the file's own module, or a project module that imports it back at top level (module_map.hpp).
// The finding stays, its message saying why there is no fix. Reports and the fixer both call
// this after linting, so what is shown as fixable is what `--fix` applies.
void withhold_self_imports(std::vector<Diagnostic>& diagnostics, const SourceFile& file);

FixOutcome fix_file(const Linter& linter, const SourceFile& file);

}  // namespace torchmigrate::engine
