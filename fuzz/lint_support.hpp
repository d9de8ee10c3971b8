// SPDX-License-Identifier: MIT
// Shared by the targets that lint and fix a whole file: one linter with every rule selected and
// unsafe fixes allowed, and the invariants every lint and fix outcome must keep.
#pragma once

#include <string>

#include "fuzz_target.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace torchmigrate::fuzz {

inline const engine::Linter& all_rules_linter() {
  static const engine::Linter instance = [] {
    engine::Settings settings;
    settings.selection.select = {"ALL"};
    settings.unsafe_fixes = true;
    return engine::Linter(engine::Catalog::builtin(), checks::builtin_registry(), std::move(settings));
  }();
  return instance;
}

// The file as a run sees it: bytes decoded as the session decodes them (byte order mark
// dropped); nullopt for bytes a run skips unchecked (NUL bytes, not UTF-8).
inline std::optional<SourceFile> decoded_file(std::string path, std::string_view bytes, Language language) {
  engine::DecodedSource decoded = engine::decode_source(std::string(bytes));
  if (!decoded.skip_reason.empty()) return std::nullopt;
  return SourceFile(std::move(path), std::move(decoded.text), language);
}

// Findings lie inside the text, and so do their fixes' edits.
inline void require_valid_findings(const std::vector<Diagnostic>& diagnostics, size_t length) {
  for (const Diagnostic& diagnostic : diagnostics) {
    FUZZ_REQUIRE(diagnostic.range.start <= diagnostic.range.end && diagnostic.range.end <= length);
    for (const Fix& fix : diagnostic.fixes) {
      for (const Edit& edit : fix.edits) FUZZ_REQUIRE(edit.range.start <= edit.range.end && edit.range.end <= length);
    }
  }
}

// Fixes the file with every rule; the fixer must never meet an invalid edit, nor roll back a
// file that parsed without error (both mean a check produced a wrong fix), and the text it
// returns has valid findings. In a Python file that already has syntax errors a check sees the
// parser's error recovery, and the fixer's rollback of a fix that would add an error is the
// designed outcome, not a bug. Nothing is parsed or linted twice that the fixer already did:
// `remaining` are the findings of the fixer's last lint, of exactly the text it returns.
inline engine::FixOutcome lint_and_fix(const SourceFile& file) {
  const engine::Linter& linter = all_rules_linter();
  engine::FixOutcome outcome = engine::fix_file(linter, file);
  // The input's syntax errors are counted only for a rollback, the one case they decide.
  FUZZ_REQUIRE(!outcome.rollback || outcome.hit_pass_limit || linter.syntax_errors(file) > 0);
  // A rollback is listed among the problems too; any other problem is an invalid edit.
  FUZZ_REQUIRE(outcome.problems.size() == (outcome.rollback ? 1u : 0u) || outcome.hit_pass_limit);
  require_valid_findings(outcome.remaining, outcome.text.size());
  return outcome;
}

}  // namespace torchmigrate::fuzz
