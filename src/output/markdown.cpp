// SPDX-License-Identifier: MIT
// Markdown for pull-request comments and GitHub's job summary ($GITHUB_STEP_SUMMARY): the
// totals, a table per rule, then the findings grouped by file, each file collapsed when the
// report is long.
#include <sstream>

#include "torchmigrate/output/headline.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

// Reports with more findings than this fold each file into a <details> block.
constexpr size_t kExpandedFindings = 20;

// One line; `|` escaped in a table cell, `<>&` inside HTML (the folded file names).
std::string one_line(std::string_view text, bool table_cell, bool html) {
  std::string out;
  for (char c : text) {
    if (c == '|' && table_cell) out += "\\|";
    else if (c == '<' && html) out += "&lt;";
    else if (c == '>' && html) out += "&gt;";
    else if (c == '&' && html) out += "&amp;";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

std::string rule_link(const Report& report, const std::string& code) {
  const engine::RuleSpec* rule = report.catalog != nullptr ? report.catalog->find(code) : nullptr;
  if (rule == nullptr || rule->references.empty()) return code;
  return "[" + code + "](" + engine::reference_url(rule->references.front()) + ")";
}

}  // namespace

void write_markdown(const Report& report, std::ostream& out) {
  std::ostringstream summary;
  Report counted = report;
  counted.color = false;
  counted.summary = true;
  write_summary(counted, summary);
  out << "## torchmigrate\n\n";
  out << summary.str();
  Headline headline = compute_headline(report);
  size_t total = headline.findings;
  if (total == 0) return;

  // The headline of the HTML report, from the same numbers.
  out << "\n| Headline | |\n| --- | ---: |\n";
  for (const HeadlineItem& item : headline_items(headline)) out << "| " << item.label << " | " << item.value << " |\n";
  if (!report.projects.empty()) {
    out << "\n| Project | Supported torch | From | Files |\n| --- | --- | --- | ---: |\n";
    for (const ProjectSummary& project : report.projects) {
      out << "| `" << one_line(project.root, true, false) << "` | " << project.torch_range << " | "
          << one_line(project.source, true, false) << " | " << project.files << " |\n";
    }
  }

  out << "\n| Rule | Name | Findings | Fixable |\n| --- | --- | ---: | ---: |\n";
  for (const Statistic& statistic : rule_statistics(report)) {
    out << "| " << rule_link(report, statistic.code) << " | " << one_line(statistic.name, true, false) << " | "
        << statistic.count << " | " << statistic.fixable_count << " |\n";
  }
  bool folded = total > kExpandedFindings;
  for (const FileFindings& findings : report.files) {
    std::string path = report_path(report, *findings.file);
    size_t count = findings.diagnostics.size();
    if (folded) {
      out << "\n<details><summary><code>" << one_line(path, false, true) << "</code> (" << count
          << ")</summary>\n\n";
    } else {
      out << "\n### `" << one_line(path, false, false) << "`\n\n";
    }
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      LineColumn at = findings.file->location(diagnostic.range.start);
      out << "- " << at.line << ":" << at.column << " " << rule_link(report, diagnostic.code) << " "
          << (fixable(diagnostic, report.settings_for(findings)) ? "[\\*] " : "") << one_line(diagnostic.message, false, false)
          << "\n";
    }
    if (folded) out << "\n</details>\n";
  }
}

}  // namespace torchmigrate::output
