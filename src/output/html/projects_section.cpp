// SPDX-License-Identifier: MIT
// Each project's supported torch range, after the charts: the projects with findings one per row,
// the others collapsed into one line, so a monorepo's many clean packages do not push the charts
// and the work out of sight.
#include <fmt/format.h>

#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {
namespace {

std::string project_row(const Report& report, size_t index, size_t findings) {
  const ProjectSummary& project = report.projects[index];
  return fmt::format(
      "<tr><td class=\"path\"><a class=\"filter-link\" href=\"#filter=project:{}\">{}</a></td>"
      "<td class=\"torch\">{}</td><td class=\"path\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
      index, breakable_path(project.root), escape_text(project.torch_range), breakable_path(project.source),
      project.files, findings);
}

// "3 projects without findings", their names and ranges inside a <details>.
std::string quiet_row(const Report& report, const std::vector<size_t>& quiet) {
  if (quiet.empty()) return {};
  std::string names;
  for (size_t index : quiet) {
    const ProjectSummary& project = report.projects[index];
    names += fmt::format("<li><span class=\"path\">{}</span> <span class=\"torch\">{}</span></li>",
                         breakable_path(project.root), escape_text(project.torch_range));
  }
  return fmt::format(
      "<tr class=\"quiet\"><td colspan=\"5\"><details><summary>{} without findings</summary><ul>{}</ul></details>"
      "</td></tr>\n",
      plural(quiet.size(), "project"), names);
}

}  // namespace

std::string projects_section(const Report& report) {
  if (report.projects.empty()) return {};
  std::vector<size_t> findings(report.projects.size(), 0);
  for (const FileFindings& file : report.files) {
    if (file.project < findings.size()) findings[file.project] += file.diagnostics.size();
  }
  std::string rows;
  std::vector<size_t> quiet;
  for (size_t i = 0; i < report.projects.size(); ++i) {
    if (findings[i] == 0) {
      quiet.push_back(i);
    } else {
      rows += project_row(report, i, findings[i]);
    }
  }
  return "<section id=\"projects-section\"><h2>Supported torch per project</h2>\n"
         "<table id=\"projects\"><thead><tr><th>Project</th><th>Supported torch</th><th>From</th>"
         "<th class=\"n\">Files</th><th class=\"n\">Findings</th></tr></thead><tbody>\n" +
         rows + quiet_row(report, quiet) + "</tbody></table></section>\n";
}

}  // namespace torchmigrate::output::html
