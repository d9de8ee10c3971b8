// SPDX-License-Identifier: MIT
// Colour for the text formats on a terminal (Ruff's palette); plain text when `Report::color`
// is off, so piped output is byte for byte what it always was.
#pragma once

#include <string>
#include <string_view>

#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {

enum class Style {
  Path,       // bold
  Separator,  // the `:` after the path, cyan
  Code,       // rule code, bold red
  FixMarker,  // `[*]`, cyan
  Caret,      // `^^^` under the range, red
  Gutter,     // line numbers and `|`, blue
};

std::string styled(const Report& report, Style style, std::string_view text);

// `path:line:col: CODE [*] ` of the concise and full formats, styled.
std::string finding_head(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic,
                         LineColumn at);
// The same with the position written by the caller (`cell 3:2:5` inside a notebook).
std::string finding_head(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic,
                         const std::string& position);

}  // namespace torchmigrate::output
