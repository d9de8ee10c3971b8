// SPDX-License-Identifier: MIT
// JSON array of findings in Ruff's field layout (code, message, filename, location,
// end_location, fix.edits, url), plus severity and the rule name.
#include <nlohmann/json.hpp>

#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/output/notebook_positions.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

// In a notebook: the line and column within the cell that the finding's `cell` names.
nlohmann::json location(const SourceFile& file, const NotebookPositions& cells, uint32_t offset) {
  LineColumn at = file.location(offset);
  if (auto cell = cells.at(offset)) at = {cell->line, cell->column};
  return {{"row", at.line}, {"column", at.column}};
}

nlohmann::json fix_json(const SourceFile& file, const NotebookPositions& cells, const Fix& fix,
                        const engine::Settings& settings) {
  nlohmann::json edits = nlohmann::json::array();
  for (const Edit& edit : fix.edits) {
    edits.push_back({{"content", edit.replacement},
                     {"location", location(file, cells, edit.range.start)},
                     {"end_location", location(file, cells, edit.range.end)}});
  }
  nlohmann::json out{{"message", fix.title},
                     {"applicability", to_string(settings.effective(fix))},
                     {"edits", edits}};
  if (fix.policy != FixPolicy::None) out["policy"] = to_string(fix.policy);
  return out;
}

}  // namespace

nlohmann::json finding_json(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic) {
  const SourceFile& file = *findings.file;
  const NotebookPositions& cells = positions_of(findings.file);
  const engine::Settings& settings = report.settings_for(findings);
  const engine::RuleSpec* rule = report.catalog->find(diagnostic.code);
  nlohmann::json entry{{"code", diagnostic.code},
                       {"name", rule != nullptr ? rule->name : ""},
                       {"message", diagnostic.message},
                       {"severity", to_string(diagnostic.severity)},
                       {"filename", file.path()},
                       {"location", location(file, cells, diagnostic.range.start)},
                       {"end_location", location(file, cells, diagnostic.range.end)},
                       {"noqa_row", location(file, cells, diagnostic.range.start)["row"]}};
  // Ruff's field: the 1-based cell a notebook finding is in.
  if (auto cell = cells.at(diagnostic.range.start)) entry["cell"] = cell->cell;
  const Fix* chosen = engine::chosen_fix(diagnostic, settings);
  entry["fix"] = chosen != nullptr ? fix_json(file, cells, *chosen, settings) : nlohmann::json(nullptr);
  nlohmann::json alternatives = nlohmann::json::array();
  for (const Fix& fix : diagnostic.fixes) alternatives.push_back(fix_json(file, cells, fix, settings));
  entry["fixes"] = alternatives;
  // Ruff's field: the rule's documentation page (where the build publishes docs/rules), else null.
  std::string url = rule != nullptr ? engine::rule_docs_url(*rule) : std::string();
  entry["url"] = url.empty() ? nlohmann::json(nullptr) : nlohmann::json(url);
  return entry;
}

void write_json(const Report& report, std::ostream& out) {
  nlohmann::json findings_json = nlohmann::json::array();
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      findings_json.push_back(finding_json(report, findings, diagnostic));
    }
  }
  out << findings_json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace torchmigrate::output
