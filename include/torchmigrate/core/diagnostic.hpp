// SPDX-License-Identifier: MIT
// One finding: a rule code at a byte range of a file, with a message and its candidate fixes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate {

enum class Severity { Error, Warning, Info };

std::string_view to_string(Severity severity);

struct Diagnostic {
  std::string code;     // "TM101"; TM900-TM902 (below) for files that could not be read, parsed or checked
  std::string message;  // one line, code in backticks, no final period
  TextRange range;
  Severity severity = Severity::Warning;
  // Alternatives; at most one is applied. For changed defaults: keep-old and adopt-new.
  std::vector<Fix> fixes;
};

// Internal codes for problems that are not rule findings (Ruff uses E902 for io errors).
inline constexpr const char* kIoErrorCode = "TM900";
inline constexpr const char* kParseErrorCode = "TM901";
inline constexpr const char* kInternalErrorCode = "TM902";

// True for those internal codes: notes about the run, never a finding of a catalog rule.
inline bool is_internal_code(std::string_view code) {
  return code == kIoErrorCode || code == kParseErrorCode || code == kInternalErrorCode;
}

}  // namespace torchmigrate
