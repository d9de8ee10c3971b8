// SPDX-License-Identifier: MIT
// --statistics: how many findings each rule produced and whether `--fix` would fix them, in
// Ruff's layout (count, code, [*] all / [~] some / [ ] none fixable, rule name).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
std::vector<Statistic> rule_statistics(const Report& report) {
  std::map<std::string, Statistic> by_code;
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      Statistic& statistic = by_code[diagnostic.code];
      statistic.code = diagnostic.code;
      ++statistic.count;
      if (fixable(diagnostic, report.settings_for(findings))) ++statistic.fixable_count;
    }
  }
  std::vector<Statistic> statistics;
  for (auto& [code, statistic] : by_code) {
    statistic.name = rule_name(report, code);
    statistics.push_back(std::move(statistic));
  }
  // Most frequent first; ties in code order (the map's order, kept by the stable sort).
  std::stable_sort(statistics.begin(), statistics.end(),
                   [](const Statistic& a, const Statistic& b) { return a.count > b.count; });
  return statistics;
}

void write_statistics(Format format, const Report& report, std::ostream& out) {
  std::vector<Statistic> statistics = rule_statistics(report);
  if (format == Format::Json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Statistic& statistic : statistics) {
      rows.push_back({{"code", statistic.code},
                      {"name", statistic.name},
                      {"count", statistic.count},
                      {"fixable_count", statistic.fixable_count}});
    }
    out << rows.dump(2) << '\n';
    return;
  }
  if (statistics.empty()) return;
  size_t count_width = std::to_string(statistics.front().count).size();
  size_t code_width = 0;
  bool any_fixable = false;
  for (const Statistic& statistic : statistics) {
    code_width = std::max(code_width, statistic.code.size());
    any_fixable = any_fixable || statistic.fixable_count > 0;
  }
  for (const Statistic& statistic : statistics) {
    std::string count = std::to_string(statistic.count);
    out << std::string(count_width - count.size(), ' ') << count << '\t' << statistic.code
        << std::string(code_width - statistic.code.size(), ' ') << '\t';
    if (any_fixable) {
      out << (statistic.fixable_count == statistic.count ? "[*] " : statistic.fixable_count > 0 ? "[~] " : "[ ] ");
    }
    out << statistic.name << '\n';
  }
  if (any_fixable) {
    out << "[*] fixable with `torchmigrate check --fix" << (report.settings->unsafe_fixes ? " --unsafe-fixes" : "") << "`\n";
  }
}

}  // namespace torchmigrate::output
