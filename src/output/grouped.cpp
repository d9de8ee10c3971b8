// SPDX-License-Identifier: MIT
// Ruff's grouped format: each file's path on a line of its own, then its findings indented,
// `line:col CODE [*] message` with the positions padded to the widest in the file, a blank line
// after each file, then the summary of the concise format.
#include <algorithm>
#include <sstream>
#include <string>

#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/notebook_positions.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/style.hpp"

namespace torchmigrate::output {
namespace {

size_t digits(uint32_t value) { return std::to_string(value).size(); }

// The position shown for a finding: within its cell in a notebook (`cell 2:` comes first).
struct Shown {
  std::string cell;  // "cell 2:" or empty
  LineColumn at;
};

Shown shown_position(const SourceFile& file, const NotebookPositions& cells, uint32_t offset) {
  if (auto cell = cells.at(offset)) return {"cell " + std::to_string(cell->cell), {cell->line, cell->column}};
  return {"", file.location(offset)};
}

}  // namespace

void write_grouped(const Report& report, std::ostream& out) {
  const std::string colon = styled(report, Style::Separator, ":");
  for (const FileFindings& findings : report.files) {
    NotebookPositions cells(*findings.file);
    std::vector<Shown> positions;
    size_t line_width = 1, column_width = 1;
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      positions.push_back(shown_position(*findings.file, cells, diagnostic.range.start));
      line_width = std::max(line_width, digits(positions.back().at.line));
      column_width = std::max(column_width, digits(positions.back().at.column));
    }
    out << styled(report, Style::Path, escape_control(findings.file->path())) << ":\n";
    for (size_t i = 0; i < findings.diagnostics.size(); ++i) {
      const Diagnostic& diagnostic = findings.diagnostics[i];
      const Shown& shown = positions[i];
      out << "  " << std::string(line_width - digits(shown.at.line), ' ');
      if (!shown.cell.empty()) out << shown.cell << colon;
      out << shown.at.line << colon << shown.at.column << std::string(column_width - digits(shown.at.column), ' ')
          << ' ' << styled(report, Style::Code, diagnostic.code) << ' ';
      if (fixable(diagnostic, report.settings_for(findings))) out << styled(report, Style::FixMarker, "[*]") << ' ';
      out << escape_control(diagnostic.message) << '\n';
    }
    out << '\n';
  }
  write_summary(report, out);
}

}  // namespace torchmigrate::output
