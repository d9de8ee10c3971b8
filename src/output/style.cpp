// SPDX-License-Identifier: MIT
// ANSI styles through fmt's colour support.
#include "torchmigrate/output/style.hpp"

#include <fmt/color.h>

#include "torchmigrate/output/escape.hpp"

namespace torchmigrate::output {

std::string styled(const Report& report, Style style, std::string_view text) {
  if (!report.color || text.empty()) return std::string(text);
  fmt::text_style look;
  switch (style) {
    case Style::Path: look = fmt::emphasis::bold; break;
    case Style::Separator: look = fmt::fg(fmt::terminal_color::cyan); break;
    case Style::Code: look = fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold; break;
    case Style::FixMarker: look = fmt::fg(fmt::terminal_color::cyan); break;
    case Style::Caret: look = fmt::fg(fmt::terminal_color::red); break;
    case Style::Gutter: look = fmt::fg(fmt::terminal_color::blue) | fmt::emphasis::bold; break;
  }
  return fmt::format(look, "{}", text);
}

std::string finding_head(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic,
                         LineColumn at) {
  std::string colon = styled(report, Style::Separator, ":");
  return finding_head(report, findings, diagnostic, std::to_string(at.line) + colon + std::to_string(at.column));
}

std::string finding_head(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic,
                         const std::string& position) {
  std::string colon = styled(report, Style::Separator, ":");
  std::string head = styled(report, Style::Path, escape_control(findings.file->path())) + colon + position + colon +
                     ' ' + styled(report, Style::Code, diagnostic.code) + ' ';
  if (fixable(diagnostic, report.settings_for(findings))) head += styled(report, Style::FixMarker, "[*]") + ' ';
  return head;
}

}  // namespace torchmigrate::output
