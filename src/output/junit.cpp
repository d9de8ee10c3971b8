// SPDX-License-Identifier: MIT
// JUnit XML, as CI test-report widgets read it: one <testsuite> per file, one failing
// <testcase> per finding; a single passing test case when nothing was found.
#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

// Escapes markup and whitespace in attributes; the other control characters, which XML 1.0
// cannot hold even as character references, and bytes that are not UTF-8 are escaped visibly.
std::string xml_escape(std::string_view text) {
  return escape_control(replace_characters(text, {{'&', "&amp;"},
                                                  {'<', "&lt;"},
                                                  {'>', "&gt;"},
                                                  {'"', "&quot;"},
                                                  {'\'', "&apos;"},
                                                  {'\t', "&#9;"},
                                                  {'\n', "&#10;"},
                                                  {'\r', "&#13;"}}));
}

// The test class: the path without its extension, like Ruff's.
std::string class_name(const std::string& path) {
  size_t slash = path.rfind('/');
  size_t dot = path.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash + 1)) return path.substr(0, dot);
  return path;
}

}  // namespace

void write_junit(const Report& report, std::ostream& out) {
  size_t total = 0;
  for (const FileFindings& findings : report.files) total += findings.diagnostics.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"torchmigrate\" tests=\"" << (total == 0 ? 1 : total) << "\" failures=\"" << total
      << "\" errors=\"0\">\n";
  if (total == 0) {
    out << "  <testsuite name=\"torchmigrate\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"0\" package=\"torchmigrate\">\n"
        << "    <testcase name=\"No errors found\" classname=\"torchmigrate\"/>\n"
        << "  </testsuite>\n";
  }
  for (const FileFindings& findings : report.files) {
    if (findings.diagnostics.empty()) continue;
    const SourceFile& file = *findings.file;
    std::string path = report_path(report, file);
    std::string escaped_path = xml_escape(path);
    std::string classname = xml_escape(class_name(path));
    out << "  <testsuite name=\"" << escaped_path << "\" tests=\"" << findings.diagnostics.size()
        << "\" disabled=\"0\" errors=\"0\" failures=\"" << findings.diagnostics.size() << "\" package=\"torchmigrate\">\n";
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      LineColumn at = file.location(diagnostic.range.start);
      std::string message = xml_escape(diagnostic.message);
      out << "    <testcase name=\"torchmigrate." << xml_escape(diagnostic.code) << "\" classname=\"" << classname
          << "\" file=\"" << escaped_path << "\" line=\"" << at.line << "\" column=\"" << at.column << "\">\n"
          << "      <failure message=\"" << message << "\" type=\"" << xml_escape(diagnostic.code) << "\">line "
          << at.line << ", col " << at.column << ", " << message << "</failure>\n"
          << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace torchmigrate::output
