// SPDX-License-Identifier: MIT
// Ruff's concise format: `path:line:col: CODE [*] message`, one finding a line.
#include "torchmigrate/output/notebook_positions.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {

void write_concise(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    NotebookPositions positions(*findings.file);
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      out << findings.file->path() << ':';
      write_position(out, *findings.file, positions, diagnostic.range.start);
      out << ": " << diagnostic.code << ' '
          << (fixable(diagnostic, report.settings_for(findings)) ? "[*] " : "") << diagnostic.message << '\n';
    }
  }
  write_summary(report, out);
}

}  // namespace torchmigrate::output
