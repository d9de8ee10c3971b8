// SPDX-License-Identifier: MIT
// The findings table. Every finding goes into one compact JSON document (each distinct path,
// message and source line stored once) that the page's script renders, sorts and filters: a
// report of tens of thousands of findings stays a few megabytes and opens quickly.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <unordered_map>

#include "torchmigrate/output/escape.hpp"
#include "torchmigrate/output/html.hpp"
#include "torchmigrate/output/notebook_positions.hpp"

namespace torchmigrate::output::html {
namespace {

constexpr size_t kSourceLineBytes = 240;

// Strings stored once, referred to by index.
class StringTable {
 public:
  size_t add(const std::string& text) {
    auto [it, inserted] = index_.try_emplace(text, strings_.size());
    if (inserted) strings_.push_back(text);
    return it->second;
  }
  [[nodiscard]] nlohmann::json json() const { return strings_; }

 private:
  std::unordered_map<std::string, size_t> index_;
  std::vector<std::string> strings_;
};

// The line the finding starts on (in a notebook, the line of the cell), without indentation,
// shortened; control characters visible.
std::string source_line(const SourceFile& file, const NotebookPositions& positions, const Diagnostic& diagnostic) {
  std::optional<std::string_view> in_cell = positions.cell_line(diagnostic.range.start);
  std::string_view text = in_cell ? *in_cell
                                  : file.slice(file.lines().line_range(file.lines().line_of(diagnostic.range.start),
                                                                      file.text()));
  size_t start = text.find_first_not_of(" \t");
  text = start == std::string_view::npos ? std::string_view() : text.substr(start);
  std::string shown = escape_control(text.substr(0, kSourceLineBytes), true);
  return text.size() > kSourceLineBytes ? shown + "\u2026" : shown;
}

nlohmann::json table_data(const Report& report) {
  StringTable strings;
  nlohmann::json rules = nlohmann::json::array(), files = nlohmann::json::array(), rows = nlohmann::json::array();
  std::unordered_map<std::string, size_t> rule_index;
  for (size_t f = 0; f < report.files.size(); ++f) {
    const FileFindings& findings = report.files[f];
    const engine::Settings& settings = report.settings_for(findings);
    files.push_back({strings.add(escape_control(report_path(report, *findings.file))), findings.project});
    const NotebookPositions& positions = positions_of(findings.file);
    for (size_t d = 0; d < findings.diagnostics.size(); ++d) {
      const Diagnostic& diagnostic = findings.diagnostics[d];
      auto [rule, inserted] = rule_index.try_emplace(diagnostic.code, rules.size());
      if (inserted) {
        const engine::RuleSpec* spec = report.rule(diagnostic.code);
        rules.push_back({diagnostic.code, rule_name(report, diagnostic.code), urgency_id(urgency_of(spec)),
                         spec != nullptr, spec != nullptr ? spec->since : std::string()});
      }
      std::ostringstream position;
      write_position(position, *findings.file, positions, diagnostic.range.start);
      int is_new = findings.new_since.empty() ? -1 : static_cast<int>(findings.new_since.at(d));
      rows.push_back({rule->second, f, findings.file->location(diagnostic.range.start).line, position.str(),
                      strings.add(escape_control(diagnostic.message)),
                      static_cast<size_t>(fix_kind(diagnostic, settings)),
                      strings.add(source_line(*findings.file, positions, diagnostic)), is_new});
    }
  }
  nlohmann::json urgencies = nlohmann::json::object(), fix_kinds = nlohmann::json::array();
  for (size_t u = 0; u < kUrgencyCount; ++u) {
    urgencies[std::string(urgency_id(static_cast<Urgency>(u)))] = urgency_label(static_cast<Urgency>(u));
  }
  for (size_t k = 0; k < kFixKindCount; ++k) {
    fix_kinds.push_back({fix_kind_id(static_cast<FixKind>(k)), fix_kind_label(static_cast<FixKind>(k))});
  }
  return {{"strings", strings.json()}, {"rules", rules},          {"files", files},
          {"rows", rows},               {"urgencies", urgencies}, {"fixKinds", fix_kinds}};
}

}  // namespace

std::string findings_section(const Report& report) {
  std::string data = table_data(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  bool baseline = report.progress != nullptr;
  return fmt::format(
      "<section id=\"findings-section\"><h2>Findings</h2>\n"
      "<div class=\"controls\"><label>Filter <input id=\"filter\" type=\"search\" size=\"40\" "
      "placeholder=\"code, fix:manual, urgency:breaks, file:src/, text\u2026\"></label> "
      "<span id=\"shown-count\" aria-live=\"polite\"></span></div>\n"
      "<noscript><p>The findings table needs JavaScript; the headline and charts above do not.</p></noscript>\n"
      "<table id=\"findings\"{}><thead><tr>"
      "<th data-key=\"rule\">Rule</th><th data-key=\"urgency\">Urgency</th><th data-key=\"file\">File</th>"
      "<th data-key=\"line\" class=\"n\">Line</th><th data-key=\"message\">Message and source line</th>"
      "<th data-key=\"fix\">Fix</th>{}</tr></thead><tbody></tbody></table>\n"
      "<button id=\"show-more\" type=\"button\" hidden>Show more</button>\n"
      "<script type=\"application/json\" id=\"findings-data\">{}</script></section>\n",
      baseline ? " class=\"with-baseline\"" : "", baseline ? "<th data-key=\"new\">Baseline</th>" : "",
      script_json(data));
}

}  // namespace torchmigrate::output::html
