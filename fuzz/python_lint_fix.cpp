// SPDX-License-Identifier: MIT
// The Python front, semantic model, every Python check and the fixer: decodes the input as a run
// does, lints it as a .py file with all rules selected (unsafe fixes included), applies the
// fixes and checks the result. Fixed code must parse: never more syntax errors than the input
// had (lint_support.hpp has the other invariants).
#include <string>

#include "lint_support.hpp"

using namespace torchmigrate;

namespace {

// Every parse, lint and fix pass costs time in proportion to the input; 493 of the 498 seeds
// (the Python fixtures) are shorter than this. A longer input is refused (-1: libFuzzer keeps
// it out of the corpus); fuzz/python_lint_fix.options caps libFuzzer's inputs at the same
// length, so the longer seeds are read cut to it.
constexpr size_t kMaxInput = 2048;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return -1;
  const std::optional<SourceFile> file = fuzz::decoded_file("fuzz.py", fuzz::bytes(data, size), Language::Python);
  if (!file) return 0;
  const engine::FixOutcome outcome = fuzz::lint_and_fix(*file);
  if (!outcome.applied.empty()) {
    const engine::Linter& linter = fuzz::all_rules_linter();
    FUZZ_REQUIRE(linter.syntax_errors(SourceFile("fuzz.py", outcome.text, Language::Python)) <=
                 linter.syntax_errors(*file));
  }
  return 0;
}
