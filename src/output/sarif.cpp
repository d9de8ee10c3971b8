// SPDX-License-Identifier: MIT
// SARIF 2.1.0: one run whose driver lists every rule with its docs, and one result per finding
// with its region and proposed fixes; paths are relative to %SRCROOT% (the repository root).
#include <nlohmann/json.hpp>

#include <map>

#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/rule_docs.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::output {
namespace {

constexpr const char* kRootBase = "%SRCROOT%";

// Where to learn about the tool (SARIF2005): the build's home page when it sets one
// (-DTORCHMIGRATE_HOMEPAGE_URL=...), else the notes of the PyTorch release the catalog migrates to.
std::string information_uri([[maybe_unused]] const engine::Catalog& catalog) {
#ifdef TORCHMIGRATE_HOMEPAGE_URL
  return TORCHMIGRATE_HOMEPAGE_URL;
#else
  return "https://github.com/pytorch/pytorch/releases/tag/v" + catalog.release().to.str() + ".0";
#endif
}

// Percent-encodes everything but RFC 3986's unreserved characters and `/`.
std::string uri_escape(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : path) {
    auto byte = static_cast<unsigned char>(c);
    bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

nlohmann::json artifact_location(const Report& report, const SourceFile& file) {
  std::string path = report_path(report, file);
  if (!path.empty() && path.front() == '/') return {{"uri", "file://" + uri_escape(path)}};
  return {{"uri", uri_escape(path)}, {"uriBaseId", kRootBase}};
}

nlohmann::json region(const SourceFile& file, TextRange range) {
  LineColumn start = file.location(range.start);
  LineColumn end = file.location(range.end);
  return {{"startLine", start.line}, {"startColumn", start.column}, {"endLine", end.line}, {"endColumn", end.column}};
}

std::string_view level(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "warning";
}

// GitHub code scanning reads `precision` and `problem.severity` from the rule's properties.
std::string_view precision(const std::string& confidence) {
  if (confidence == "high") return "high";
  if (confidence == "medium") return "medium";
  return "low";
}

std::string_view problem_severity(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "recommendation";
  }
  return "warning";
}

// The same sections as `torchmigrate rule CODE`, as plain text and as Markdown.
nlohmann::json help(const engine::RuleSpec& rule) {
  return {{"text", rule_docs_text(rule)}, {"markdown", rule_docs_markdown(rule, DocsLayout::Help)}};
}

nlohmann::json rule_descriptor(const engine::RuleSpec& rule, const engine::Catalog& catalog) {
  nlohmann::json properties{{"tags", nlohmann::json::array({"pytorch-" + rule.release.to.str(), "migration"})},
                            {"kind", engine::to_string(rule.kind)},
                            {"precision", precision(rule.confidence)},
                            {"problem.severity", problem_severity(rule.severity)},
                            {"confidence", rule.confidence},
                            {"since", rule.since},
                            {"fix", engine::fix_label(rule, /*with_policies=*/false)},
                            {"references", rule.references}};
  if (!rule.removed_in.empty()) properties["removedIn"] = rule.removed_in;
  nlohmann::json descriptor{
      {"id", rule.code},
      {"name", rule.name},
      {"shortDescription", {{"text", rule.summary}}},
      {"fullDescription", {{"text", rule.docs().what}}},
      {"help", help(rule)},
      {"defaultConfiguration", {{"level", level(rule.severity)}, {"enabled", rule.default_enabled}}},
      {"properties", properties}};
  // The rule's published page when the build names one, else the change it is about.
  std::string page = engine::rule_docs_url(rule);
  descriptor["helpUri"] = !page.empty()             ? page
                          : rule.references.empty() ? information_uri(catalog)
                                                    : engine::reference_url(rule.references.front());
  return descriptor;
}

// Codes that are not catalog rules (a file that could not be read, parsed...).
nlohmann::json internal_descriptor(const Report& report, const std::string& code) {
  std::string name = rule_name(report, code);
  std::string description = code == kIoErrorCode      ? "A file could not be read or its fixes could not be written"
                            : code == kParseErrorCode ? "A file could not be parsed, so it was not checked"
                                                      : "torchmigrate failed while checking a file";
  return {{"id", code},
          {"name", name},
          {"shortDescription", {{"text", description}}},
          {"fullDescription", {{"text", description + "."}}},
          {"help", {{"text", description + "."}, {"markdown", description + "."}}},
          {"defaultConfiguration", {{"level", "error"}}},
          {"properties", {{"tags", nlohmann::json::array({"torchmigrate-internal"})}}}};
}

nlohmann::json fix_json(const Report& report, const SourceFile& file, const Fix& fix, const engine::Settings& settings) {
  nlohmann::json replacements = nlohmann::json::array();
  for (const Edit& edit : fix.edits) {
    replacements.push_back({{"deletedRegion", region(file, edit.range)}, {"insertedContent", {{"text", edit.replacement}}}});
  }
  nlohmann::json properties{{"applicability", to_string(settings.effective(fix))}};
  if (!fix.requirements.empty()) properties["requires"] = to_string(fix.requirements);
  if (fix.policy != FixPolicy::None) properties["policy"] = to_string(fix.policy);
  return {{"description", {{"text", fix.title}}},
          {"artifactChanges", nlohmann::json::array({nlohmann::json{{"artifactLocation", artifact_location(report, file)},
                                                                    {"replacements", replacements}}})},
          {"properties", properties}};
}

}  // namespace

void write_sarif(const Report& report, std::ostream& out) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, size_t> rule_index;
  for (const engine::RuleSpec& rule : report.catalog->rules()) {
    rule_index[rule.code] = rules.size();
    rules.push_back(rule_descriptor(rule, *report.catalog));
  }
  nlohmann::json results = nlohmann::json::array();
  for (const FileFindings& findings : report.files) {
    const SourceFile& file = *findings.file;
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      auto [it, added] = rule_index.try_emplace(diagnostic.code, rules.size());
      if (added) rules.push_back(internal_descriptor(report, diagnostic.code));
      nlohmann::json result{
          {"ruleId", diagnostic.code},
          {"ruleIndex", it->second},
          {"level", level(diagnostic.severity)},
          {"message", {{"text", diagnostic.message}}},
          {"locations", nlohmann::json::array({nlohmann::json{
                            {"physicalLocation", {{"artifactLocation", artifact_location(report, file)},
                                                  {"region", region(file, diagnostic.range)}}}}})}};
      // The fix --fix would apply comes first; display-only suggestions are included too,
      // marked by their applicability.
      nlohmann::json fixes = nlohmann::json::array();
      const engine::Settings& settings = report.settings_for(findings);
      const Fix* chosen = engine::chosen_fix(diagnostic, settings);
      if (chosen != nullptr && !chosen->edits.empty()) fixes.push_back(fix_json(report, file, *chosen, settings));
      for (const Fix& fix : diagnostic.fixes) {
        if (&fix != chosen && !fix.edits.empty()) fixes.push_back(fix_json(report, file, fix, settings));
      }
      // A notebook fix is Python text for a cell, not bytes for the JSON file SARIF addresses.
      if (!fixes.empty() && file.language() != Language::Notebook) result["fixes"] = fixes;
      results.push_back(std::move(result));
    }
  }
  nlohmann::json run{{"tool",
                      {{"driver",
                        {{"name", "torchmigrate"},
                         {"version", kVersion},
                         {"informationUri", information_uri(*report.catalog)},
                         {"semanticVersion", kVersion},
                         {"rules", rules}}}}},
                     {"columnKind", "unicodeCodePoints"},
                     {"results", results}};
  if (!report.root.empty()) {
    std::string root = report.root.ends_with('/') ? report.root : report.root + '/';
    run["originalUriBaseIds"] = {{kRootBase, {{"uri", "file://" + uri_escape(root)}}}};
  }
  nlohmann::json sarif{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                       {"version", "2.1.0"},
                       {"runs", nlohmann::json::array({run})}};
  out << sarif.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace torchmigrate::output
