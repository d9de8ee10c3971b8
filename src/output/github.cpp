// SPDX-License-Identifier: MIT
// GitHub Actions workflow commands: one `::error|warning|notice ...::message` line per finding,
// which the runner turns into annotations on the pull request's diff.
#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

// GitHub's escaping for a command's message: `%`, CR and LF (which the runner decodes again);
// the other control characters, which it cannot decode, are escaped visibly.
std::string escape_github(std::string_view text) {
  return replace_characters(text, {{'%', "%25"}, {'\r', "%0D"}, {'\n', "%0A"}});
}

std::string escape_data(std::string_view text) { return escape_control(escape_github(text)); }

// Property values additionally escape the separators `:` and `,`.
std::string escape_property(std::string_view text) {
  return replace_characters(escape_data(text), {{':', "%3A"}, {',', "%2C"}});
}

std::string_view command(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "notice";
  }
  return "warning";
}

}  // namespace

void write_github(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    const SourceFile& file = *findings.file;
    std::string path = escape_property(report_path(report, file));
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      LineColumn start = file.location(diagnostic.range.start);
      LineColumn end = file.location(diagnostic.range.end);
      out << "::" << command(diagnostic.severity) << " title=" << escape_property("torchmigrate (" + diagnostic.code + ")")
          << ",file=" << path << ",line=" << start.line << ",col=" << start.column << ",endLine=" << end.line
          << ",endColumn=" << end.column << "::" << escape_data(diagnostic.code + " " + diagnostic.message) << '\n';
    }
  }
}

}  // namespace torchmigrate::output
