// SPDX-License-Identifier: MIT
// Reviewdog's diagnostic format (rdjson: one DiagnosticResult object), which reviewdog turns into
// pull-request review comments, with the fix as a suggested change. Layout as Ruff prints it,
// plus each finding's severity; columns count UTF-8 bytes, as the format defines them.
#include <nlohmann/json.hpp>

#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

nlohmann::json position(const SourceFile& file, uint32_t offset) {
  uint32_t line = file.location(offset).line;
  uint32_t column = offset - file.lines().line_range(file.lines().line_of(offset), file.text()).start + 1;
  return {{"line", line}, {"column", column}};
}

nlohmann::json range(const SourceFile& file, TextRange range) {
  return {{"start", position(file, range.start)}, {"end", position(file, range.end)}};
}

std::string_view severity(Severity severity) {
  switch (severity) {
    case Severity::Error: return "ERROR";
    case Severity::Warning: return "WARNING";
    case Severity::Info: return "INFO";
  }
  return "UNKNOWN_SEVERITY";
}

// The edits of the fix `--fix` would choose, as suggested changes a reviewer can commit; none for
// a display-only fix, and none in a notebook (its edits are Python text for a cell, not bytes of
// the file the finding points at).
nlohmann::json suggestions(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic) {
  const engine::Settings& settings = report.settings_for(findings);
  const Fix* fix = engine::chosen_fix(diagnostic, settings);
  if (fix == nullptr || fix->edits.empty() || settings.effective(*fix) == Applicability::DisplayOnly ||
      findings.file->language() == Language::Notebook) {
    return nullptr;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const Edit& edit : fix->edits) {
    out.push_back({{"range", range(*findings.file, edit.range)}, {"text", edit.replacement}});
  }
  return out;
}

nlohmann::json diagnostic_json(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic) {
  const SourceFile& file = *findings.file;
  nlohmann::json code{{"value", diagnostic.code}};
  if (const engine::RuleSpec* rule = report.rule(diagnostic.code)) {
    if (std::string url = engine::rule_docs_url(*rule); !url.empty()) code["url"] = url;
  }
  nlohmann::json entry{{"message", diagnostic.message},
                       {"location", {{"path", file.path()}, {"range", range(file, diagnostic.range)}}},
                       {"severity", severity(diagnostic.severity)},
                       {"code", code}};
  if (nlohmann::json edits = suggestions(report, findings, diagnostic); !edits.is_null()) entry["suggestions"] = edits;
  return entry;
}

}  // namespace

void write_rdjson(const Report& report, std::ostream& out) {
  nlohmann::json source{{"name", "torchmigrate"}};
#ifdef TORCHMIGRATE_HOMEPAGE_URL
  source["url"] = TORCHMIGRATE_HOMEPAGE_URL;
#endif
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      diagnostics.push_back(diagnostic_json(report, findings, diagnostic));
    }
  }
  nlohmann::json result{{"source", source}, {"diagnostics", diagnostics}};
  out << result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace torchmigrate::output
