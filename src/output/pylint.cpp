// SPDX-License-Identifier: MIT
// Pylint's (and flake8's) parseable layout, as Ruff prints it: `path:line: [CODE] message`, one
// finding a line, no summary. Editors and CI tools that read pylint output read it as it is.
#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {

void write_pylint(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    const SourceFile& file = *findings.file;
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      // In a notebook: the line in the file's JSON text (as the CI formats), a line that exists.
      out << escape_control(file.path()) << ':' << file.location(diagnostic.range.start).line << ": ["
          << diagnostic.code << "] " << escape_control(diagnostic.message) << '\n';
    }
  }
}

}  // namespace torchmigrate::output
