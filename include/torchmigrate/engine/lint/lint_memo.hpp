// SPDX-License-Identifier: MIT
// What one lint of an editor's document leaves for the next: when an edit stays inside one
// top-level statement, the Python front re-runs its checks on that statement, and on those that
// spell a module-level name whose meaning the edit changed, and keeps the others' findings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::engine {

struct LintMemo {
  uint64_t front = 0;                  // the front (and so the settings) that made it; 0: nothing kept
  std::string text;                    // the text it was made from
  std::vector<bool> candidates;        // the rules the prefilter let through
  std::vector<TextRange> statements;   // the module's top-level statements, in order
  std::vector<bool> guard_statements;  // which of them are if, try or while statements
  std::vector<bool> broken_statements;  // which of them hold a syntax error
  std::map<std::string, std::string> module_names;  // what each module-level name meant (statement_reuse.hpp)
  std::vector<Diagnostic> findings;    // compatibility code removed, suppressions not yet applied
  std::vector<TextRange> comments;     // where suppression comments may be (when a rule wants them)
  uint64_t reuses = 0;                 // lints that kept other statements' findings (tests, benchmarks)
  uint64_t renames = 0;                // of those, lints after a module-level name changed
  uint64_t rechecked = 0;              // the statements those lints checked again
};

}  // namespace torchmigrate::engine
