// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/fixer.hpp"

#include <algorithm>

namespace torchmigrate::engine {
namespace {

bool has_syntax_error(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.code == kParseErrorCode; });
}

// Edits of one fix may go in when each either touches nothing accepted so far or is an exact
// copy of an accepted edit (two findings sharing an import rewrite).
bool compatible(const Fix& fix, const std::vector<Edit>& accepted) {
  for (const Edit& edit : fix.edits) {
    for (const Edit& other : accepted) {
      if (edit == other) continue;
      if (edit.range.overlaps(other.range)) return false;
    }
  }
  return true;
}

}  // namespace

const Fix* chosen_fix(const Diagnostic& diagnostic, const Settings& settings) {
  if (diagnostic.fixes.empty()) return nullptr;
  FixPolicy policy = settings.policy_for(diagnostic.code);
  for (const Fix& fix : diagnostic.fixes) {
    if (fix.policy == FixPolicy::None || fix.policy == policy) return &fix;
  }
  return &diagnostic.fixes.front();
}

bool will_apply(const Fix& fix, const Settings& settings) {
  Applicability applicability = settings.effective(fix);
  return applicability == Applicability::Safe || (applicability == Applicability::Unsafe && settings.unsafe_fixes);
}

FixOutcome fix_file(const Linter& linter, const SourceFile& file) {
  FixOutcome outcome;
  outcome.text = file.text();
  std::vector<Diagnostic> diagnostics = linter.lint(file);
  bool broken_before = has_syntax_error(diagnostics);
  for (int pass = 0;; ++pass) {
    SourceFile current(file.path(), outcome.text, file.language());
    if (pass > 0) diagnostics = linter.lint(current);
    std::vector<Edit> accepted;
    std::vector<AppliedFix> applied_now;
    for (const Diagnostic& diagnostic : diagnostics) {
      const Fix* fix = chosen_fix(diagnostic, linter.settings());
      if (fix == nullptr || fix->edits.empty() || !will_apply(*fix, linter.settings())) continue;
      if (!compatible(*fix, accepted)) continue;
      for (const Edit& edit : fix->edits) {
        if (std::find(accepted.begin(), accepted.end(), edit) == accepted.end()) accepted.push_back(edit);
      }
      applied_now.push_back({diagnostic.code, fix->title, current.location(diagnostic.range.start).line});
    }
    if (accepted.empty()) {
      outcome.remaining = std::move(diagnostics);
      break;
    }
    if (pass == kMaxFixPasses) {
      outcome.hit_pass_limit = true;
      outcome.remaining = std::move(diagnostics);
      break;
    }
    outcome.text = apply_edits(outcome.text, accepted);
    outcome.applied.insert(outcome.applied.end(), applied_now.begin(), applied_now.end());
  }
  if (!broken_before && has_syntax_error(outcome.remaining)) {
    std::string codes;
    for (const AppliedFix& fix : outcome.applied) {
      if (codes.find(fix.code) == std::string::npos) codes += (codes.empty() ? "" : ", ") + fix.code;
    }
    Diagnostic rollback;
    rollback.code = kInternalErrorCode;
    rollback.severity = Severity::Error;
    rollback.message = "Fixes for " + codes + " would leave a syntax error; the file was left unchanged (please report this)";
    outcome.rollback = rollback;
    outcome.text = file.text();
    outcome.applied.clear();
    outcome.remaining = linter.lint(file);
  }
  return outcome;
}

}  // namespace torchmigrate::engine
