// SPDX-License-Identifier: MIT
// The full text format: the concise line, then the source line with a caret under the range,
// and the fix the finding offers. Paths, messages and source lines are printed with their
// control characters escaped; the caret is measured on the escaped line it points into, in
// terminal columns (display_width).
#include <algorithm>
#include <string>

#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/output/display_width.hpp"
#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/style.hpp"

namespace torchmigrate::output {
namespace {

void write_snippet(const Report& report, const SourceFile& file, const Diagnostic& diagnostic, std::ostream& out) {
  const LineIndex& lines = file.lines();
  TextRange line_range = lines.line_range(lines.line_of(diagnostic.range.start), file.text());
  // The file's line number: an excerpt's own line index counts only the lines it kept.
  std::string number = std::to_string(file.location(diagnostic.range.start).line);
  std::string gutter(number.size(), ' ');
  std::string_view text = file.slice(line_range);
  uint32_t start = diagnostic.range.start - line_range.start;
  uint32_t end = std::min(diagnostic.range.end, line_range.end);
  // Terminal columns, not code points: a CJK character or an emoji takes two.
  size_t width =
      end > diagnostic.range.start ? display_width(escape_control(file.slice({diagnostic.range.start, end}), true)) : 0;
  width = std::max<size_t>(width, 1);
  std::string bar = styled(report, Style::Gutter, gutter + " |");
  out << bar << '\n';
  out << styled(report, Style::Gutter, number + " |") << ' ' << escape_control(text, true) << '\n';
  out << bar << ' ' << blank_like(escape_control(text.substr(0, start), true))
      << styled(report, Style::Caret, std::string(width, '^') + ' ' + diagnostic.code) << '\n';
  out << bar << '\n';
}

}  // namespace

void write_full(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      const SourceFile& file = *findings.file;
      LineColumn at = file.location(diagnostic.range.start);
      out << finding_head(report, findings, diagnostic, at) << escape_control(diagnostic.message) << '\n';
      write_snippet(report, file, diagnostic, out);
      for (const Fix& fix : diagnostic.fixes) {
        Applicability applicability = report.settings_for(findings).effective(fix);
        out << "  = " << (applicability == Applicability::DisplayOnly ? "suggestion" : "help") << ": "
            << escape_control(fix.title);
        if (fix.policy != FixPolicy::None) out << " [" << to_string(fix.policy) << "]";
        out << " (" << to_string(applicability) << " fix)\n";
      }
      out << '\n';
    }
  }
  write_summary(report, out);
}

}  // namespace torchmigrate::output
