// SPDX-License-Identifier: MIT
// GitLab Code Quality report (a Code Climate subset): a JSON array of issues, each with a
// fingerprint that stays the same when lines are added above the finding.
#include <nlohmann/json.hpp>

#include <map>
#include <tuple>

#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {
namespace {

// GitLab's five levels; torchmigrate's error rules break code on 2.8, warnings change behaviour.
std::string_view gitlab_severity(Severity severity) {
  switch (severity) {
    case Severity::Error: return "critical";
    case Severity::Warning: return "major";
    case Severity::Info: return "info";
  }
  return "major";
}

}  // namespace

void write_gitlab(const Report& report, std::ostream& out) {
  nlohmann::json issues = nlohmann::json::array();
  // Identical findings (same file, code and matched text) get an occurrence number, so each
  // fingerprint is unique in the report as GitLab requires.
  std::map<std::tuple<std::string, std::string, std::string>, int> seen;
  for (const FileFindings& findings : report.files) {
    const SourceFile& file = *findings.file;
    std::string path = report_path(report, file);
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      std::string matched(file.slice(diagnostic.range));
      int occurrence = seen[{path, diagnostic.code, matched}]++;
      std::string key = path + '\0' + diagnostic.code + '\0' + matched + '\0' + std::to_string(occurrence);
      LineColumn start = file.location(diagnostic.range.start);
      LineColumn end = file.location(diagnostic.range.end);
      issues.push_back({{"type", "issue"},
                        {"description", diagnostic.code + " " + diagnostic.message},
                        {"check_name", diagnostic.code},
                        {"categories", nlohmann::json::array({"Compatibility"})},
                        {"fingerprint", engine::sha256_hex(key)},
                        {"severity", gitlab_severity(diagnostic.severity)},
                        {"location", {{"path", path}, {"lines", {{"begin", start.line}, {"end", end.line}}}}}});
    }
  }
  out << issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace torchmigrate::output
