// SPDX-License-Identifier: MIT
// Ruff's concise format: `path:line:col: CODE [*] message`, one finding a line (control
// characters in the path and the message escaped, so a finding is always exactly one line).
#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/notebook_positions.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/style.hpp"

#include <sstream>

namespace torchmigrate::output {

void write_concise(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    NotebookPositions positions(*findings.file);
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      std::ostringstream position;
      write_position(position, *findings.file, positions, diagnostic.range.start);
      out << finding_head(report, findings, diagnostic, position.str()) << escape_control(diagnostic.message) << '\n';
    }
  }
  write_summary(report, out);
}

}  // namespace torchmigrate::output
