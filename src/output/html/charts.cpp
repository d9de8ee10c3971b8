// SPDX-License-Identifier: MIT
// The report's charts: where the findings are (rule, top-level directory, project) and which
// files hold the most work, split by who does it.
#include <fmt/format.h>

#include <array>
#include <map>

#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {
namespace {

constexpr size_t kBarsPerChart = 15;

std::vector<std::string_view> directories_of(std::string_view path) {
  std::vector<std::string_view> parts;
  for (size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/')) {
    if (slash > 0 && path.substr(0, slash) != ".") parts.push_back(path.substr(0, slash));
    path.remove_prefix(slash + 1);
  }
  return parts;
}

// Findings counted per key and urgency, as bars coloured by urgency.
class UrgencyTally {
 public:
  void add(const std::string& key, const std::string& filter, Urgency urgency) {
    Entry& entry = entries_[key];
    entry.filter = filter;
    ++entry.counts[static_cast<size_t>(urgency)];
  }
  [[nodiscard]] std::vector<ChartBar> bars() const {
    std::vector<ChartBar> bars;
    for (const auto& [key, entry] : entries_) {
      ChartBar bar{key, entry.filter, {}};
      for (size_t u = 0; u < kUrgencyCount; ++u) {
        auto urgency = static_cast<Urgency>(u);
        bar.segments.push_back({entry.counts[u], std::string(urgency_id(urgency)), std::string(urgency_label(urgency))});
      }
      bars.push_back(std::move(bar));
    }
    return bars;
  }

 private:
  struct Entry {
    std::string filter;
    std::array<size_t, kUrgencyCount> counts{};
  };
  std::map<std::string, Entry> entries_;
};

// The colours of a chart's segments, named.
template <typename Kind, size_t Count>
std::string legend(std::string_view (*id)(Kind), std::string_view (*label)(Kind)) {
  std::string out = "<p class=\"legend\">";
  for (size_t i = 0; i < Count; ++i) {
    auto kind = static_cast<Kind>(i);
    out += fmt::format("<span><span class=\"tag {}\">&#160;</span> {}</span>", id(kind), escape(label(kind)));
  }
  return out + "</p>\n";
}

std::string figure(std::string_view id, std::string_view title, std::string_view note, const std::vector<ChartBar>& bars) {
  return fmt::format("<figure><figcaption>{}<span class=\"note\">{}</span></figcaption>\n{}</figure>\n", escape(title),
                     escape(note), bar_chart_svg(id, title, top_bars(bars, kBarsPerChart)));
}

}  // namespace

size_t common_directory_depth(const std::vector<std::string>& paths) {
  if (paths.empty()) return 0;
  std::vector<std::string_view> common = directories_of(paths.front());
  for (const std::string& path : paths) {
    std::vector<std::string_view> parts = directories_of(path);
    size_t same = 0;
    while (same < common.size() && same < parts.size() && common[same] == parts[same]) ++same;
    common.resize(same);
  }
  return common.size();
}

std::string top_directory(std::string_view path, size_t common_depth) {
  std::vector<std::string_view> parts = directories_of(path);
  if (parts.size() <= common_depth) return ".";
  std::string directory;
  for (size_t i = 0; i <= common_depth; ++i) directory += std::string(parts[i]) + "/";
  return directory;
}

std::string charts_section(const Report& report) {
  std::vector<std::string> paths;
  for (const FileFindings& findings : report.files) paths.push_back(report_path(report, *findings.file));
  size_t depth = common_directory_depth(paths);

  UrgencyTally per_rule, per_release, per_directory, per_project;
  std::vector<ChartBar> per_file;
  for (size_t f = 0; f < report.files.size(); ++f) {
    const FileFindings& findings = report.files[f];
    const engine::Settings& settings = report.settings_for(findings);
    std::string directory = top_directory(paths[f], depth);
    std::string project = findings.project < report.projects.size() ? report.projects[findings.project].root : "";
    std::array<size_t, kFixKindCount> work{};
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      Urgency urgency = urgency_of(report.rule(diagnostic.code));
      per_rule.add(fmt::format("{} {}", diagnostic.code, rule_name(report, diagnostic.code)), diagnostic.code, urgency);
      // The release whose change the rule is about: a jump over several releases shows each.
      const engine::RuleSpec* rule = report.rule(diagnostic.code);
      if (rule != nullptr) per_release.add("torch " + rule->since, "release:" + rule->since, urgency);
      per_directory.add(directory == "." ? "(top level)" : directory, directory == "." ? "" : "file:" + directory, urgency);
      if (!project.empty()) per_project.add(project, fmt::format("project:{}", findings.project), urgency);
      ++work[static_cast<size_t>(fix_kind(diagnostic, settings))];
    }
    ChartBar file{paths[f], "file:" + paths[f], {}};
    for (size_t k = 0; k < kFixKindCount; ++k) {
      auto kind = static_cast<FixKind>(k);
      file.segments.push_back({work[k], std::string(fix_kind_id(kind)), std::string(fix_kind_label(kind))});
    }
    per_file.push_back(std::move(file));
  }

  std::string out = "<section id=\"charts\"><h2>Where the findings are</h2>\n";
  out += legend<Urgency, kUrgencyCount>(urgency_id, urgency_label);
  out += legend<FixKind, kFixKindCount>(fix_kind_id, fix_kind_label) + "<div class=\"charts\">\n";
  out += figure("chart-releases", "Findings per release", "the release that changed the API; coloured by urgency",
                per_release.bars());
  out += figure("chart-rules", "Findings per rule", "coloured by urgency", per_rule.bars());
  out += figure("chart-directories", "Findings per top-level directory", "coloured by urgency", per_directory.bars());
  out += figure("chart-projects", "Findings per project", "coloured by urgency", per_project.bars());
  out += figure("chart-work", "Where the work is: files with the most findings",
                "split by who fixes them: --fix, --unsafe-fixes after review, by hand", per_file);
  return out + "</div></section>\n";
}

}  // namespace torchmigrate::output::html
