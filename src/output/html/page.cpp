// SPDX-License-Identifier: MIT
// `--output-format html`: the migration report as one page with everything inline. A Content
// Security Policy forbids the page any network access, so what it shows is all in the file.
#include <fmt/format.h>

#include "torchmigrate/output/html.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::output {

void write_html(const Report& report, std::ostream& out) {
  Headline headline = compute_headline(report);
  const engine::RuleRelease& release = report.catalog->release();
  std::string title = fmt::format("PyTorch {} \u2192 {} migration report", release.from.str(), release.to.str());
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>torchmigrate: "
      << title << "</title>\n<style>" << html::stylesheet() << "</style></head>\n<body>\n<header><h1>" << title
      << "</h1>\n"
      << fmt::format("<p class=\"meta\">torchmigrate {} \u00b7 {} in {} \u00b7 {}</p></header>\n", kVersion,
                     plural(headline.files_checked, "file"), plural(headline.projects, "project"),
                     plural(headline.findings, "finding"))
      << html::headline_section(report, headline) << html::charts_section(report) << html::projects_section(report)
      << html::findings_section(report) << html::rules_section(report) << "<script>" << html::script()
      << "</script>\n</body></html>\n";
}

}  // namespace torchmigrate::output
