// SPDX-License-Identifier: MIT
// `torchmigrate rule CODE` (one rule's docs, Markdown or JSON) and `torchmigrate rules` (the
// table of all rules, or `--write-docs DIR`: docs/rules/*.md generated from the catalog).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/internal_codes.hpp"
#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"
#include "torchmigrate/output/rule_docs.hpp"

namespace torchmigrate::cli {
namespace {

namespace fs = std::filesystem;

std::string_view language_name(engine::RuleLanguage language) {
  switch (language) {
    case engine::RuleLanguage::Python: return "python";
    case engine::RuleLanguage::Cxx: return "cxx";
    case engine::RuleLanguage::Build: return "build";
  }
  return "python";
}

// One rule's docs as Markdown: what `torchmigrate rule CODE` prints and docs/rules/*.md hold.
void write_markdown(const engine::RuleSpec& rule, std::ostream& out) {
  out << "# " << rule.name << " (" << rule.code << ")\n\n";
  out << "Severity: " << to_string(rule.severity) << ". Since torch " << rule.since;
  if (!rule.removed_in.empty()) out << ", removed in " << rule.removed_in;
  out << ". Kind: " << engine::to_string(rule.kind) << " (torch " << rule.release.from.str() << " to "
      << rule.release.to.str() << "). Confidence: " << rule.confidence << ". Fix: " << engine::fix_label(rule) << ".";
  if (!rule.default_enabled) out << " Off by default (enable with `--extend-select " << rule.code << "`).";
  out << "\n\n## When it applies\n\n" << engine::applicability_text(rule);
  for (const auto& variant : rule.variants) {
    out << "\n\nFrom torch " << variant->variant_from->str() << " on (when the project's range reaches it): severity "
        << to_string(variant->severity) << "; fix: " << engine::fix_label(*variant)
        << "; message: " << variant->message;
  }
  out << "\n\n" << output::rule_docs_markdown(rule, output::DocsLayout::Page);
}

nlohmann::ordered_json rule_json(const engine::RuleSpec& rule) {
  nlohmann::ordered_json references = nlohmann::ordered_json::array();
  for (const std::string& reference : rule.references) {
    references.push_back({{"id", reference}, {"url", engine::reference_url(reference)}});
  }
  nlohmann::ordered_json docs = {{"what", rule.docs().what},
                                 {"why", rule.docs().why},
                                 {"example_file", rule.docs().example_file},
                                 {"before", rule.docs().before},
                                 {"after", rule.docs().after},
                                 {"fix_safety", rule.docs().fix_safety},
                                 {"limitations", rule.docs().limitations}};
  if (!rule.docs().after_adopt_new.empty()) docs["after_adopt_new"] = rule.docs().after_adopt_new;
  nlohmann::ordered_json fix = {
      {"applicability", rule.fix_applicability ? std::string(to_string(*rule.fix_applicability)) : "none"},
      {"requires",
       !rule.fix_requirements.empty()
           ? nlohmann::ordered_json{{"torch", to_string(rule.fix_requirements).substr(std::string_view("torch").size())}}
           : nlohmann::ordered_json::object()},
      {"policies", rule.fix_policies}};
  nlohmann::ordered_json out = {{"code", rule.code},
                        {"name", rule.name},
                        {"summary", rule.summary},
                        {"language", language_name(rule.language)},
                        {"severity", to_string(rule.severity)},
                        {"default_enabled", rule.default_enabled},
                        {"since", rule.since},
                        {"kind", engine::to_string(rule.kind)},
                        {"release", {{"from", rule.release.from.str()}, {"to", rule.release.to.str()}}},
                        {"confidence", rule.confidence},
                        {"fix", fix},
                        {"references", references},
                        {"docs", docs}};
  if (!rule.removed_in.empty()) out["removed_in"] = rule.removed_in;
  out["applies"] = engine::applicability_text(rule);
  if (!rule.variants.empty()) {
    nlohmann::ordered_json targets = nlohmann::ordered_json::array();
    for (const auto& variant : rule.variants) {
      targets.push_back({{"from", variant->variant_from->str()},
                         {"severity", to_string(variant->severity)},
                         {"message", variant->message},
                         {"fix", engine::fix_label(*variant)}});
    }
    out["targets"] = targets;
  }
  return out;
}

std::string doc_file_name(const engine::RuleSpec& rule) { return engine::rule_docs_file(rule); }

// A Markdown table cell: one line, `|` escaped.
std::string table_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

void write_index(const engine::Catalog& catalog, std::ostream& out) {
  out << "# Rules\n\n"
         "Generated from the rule catalog (`rules/TM*.json`) by `torchmigrate rules --write-docs docs/rules`;\n"
         "do not edit by hand. `torchmigrate rule CODE` prints the same text.\n\n"
         "| Code | Name | Since | Kind | Severity | Default | Fix | Summary |\n"
         "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const engine::RuleSpec& rule : catalog.rules()) {
    out << "| [" << rule.code << "](" << doc_file_name(rule) << ") | " << rule.name << " | " << rule.since << " | "
        << engine::to_string(rule.kind) << " | " << to_string(rule.severity) << " | "
        << (rule.default_enabled ? "on" : "off") << " | " << table_cell(engine::fix_label(rule)) << " | "
        << table_cell(rule.summary) << " |\n";
  }
}

bool write_text(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    std::cerr << "torchmigrate: error: cannot write `" << path.string() << "`\n";
    return false;
  }
  return true;
}

int write_docs(const engine::Catalog& catalog, const fs::path& directory) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error || !fs::is_directory(directory)) {
    std::cerr << "torchmigrate: error: cannot create directory `" << directory.string() << "`"
              << (error ? ": " + error.message() : "") << "\n";
    return kExitUsage;
  }
  std::set<std::string> written;
  for (const engine::RuleSpec& rule : catalog.rules()) {
    std::ostringstream text;
    write_markdown(rule, text);
    if (!write_text(directory / doc_file_name(rule), text.str())) return kExitUsage;
    written.insert(doc_file_name(rule));
  }
  std::ostringstream index;
  write_index(catalog, index);
  if (!write_text(directory / "README.md", index.str())) return kExitUsage;
  // Pages of rules that were renamed or removed would otherwise linger.
  static const std::regex rule_page(R"(TM[0-9]{3}-.*\.md)");
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, rule_page) && !written.contains(name)) {
      fs::remove(entry.path(), error);
    }
  }
  std::cerr << "torchmigrate: wrote " << written.size() + 1 << " files to " << directory.string() << "\n";
  return kExitClean;
}

}  // namespace

namespace {

// `rule TM901`: a file problem's code has no release, kind or fix, only what it reports.
void write_file_problem(const engine::RuleSpec& rule, const std::string& format, std::ostream& out) {
  const engine::RuleDocs& docs = rule.docs();
  if (format == "json") {
    nlohmann::ordered_json json = {{"code", rule.code},
                                   {"name", rule.name},
                                   {"summary", rule.summary},
                                   {"kind", "file-problem"},
                                   {"default_enabled", true},
                                   {"docs", {{"what", docs.what}, {"why", docs.why}}},
                                   {"selection", docs.limitations}};
    out << json.dump(2) << '\n';
    return;
  }
  out << "# " << rule.name << " (" << rule.code << ")\n\n"
      << rule.summary << ". A file problem, not a rule of the migration catalog: it has no release and no fix.\n\n"
      << "## What it reports\n\n"
      << docs.what << "\n\n## Why\n\n"
      << docs.why << "\n\n## Selecting and suppressing\n\n"
      << docs.limitations << '\n';
}

}  // namespace

int run_rule(const engine::Catalog& catalog, const std::string& code, const std::string& format) {
  if (const engine::RuleSpec* problem = engine::find_internal_rule(code)) {
    write_file_problem(*problem, format, std::cout);
    return kExitClean;
  }
  const engine::RuleSpec* rule = catalog.find_by_code_or_name(code);
  if (rule == nullptr) {
    // Codes are written upper case, but `rule tm101` means the same rule.
    std::string upper = code;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    rule = catalog.find(upper);
  }
  if (rule == nullptr) {
    std::cerr << "torchmigrate: error: unknown rule `" << code << "`; `torchmigrate rules` lists them\n";
    return kExitUsage;
  }
  if (format == "json") {
    std::cout << rule_json(*rule).dump(2) << '\n';
  } else {
    write_markdown(*rule, std::cout);
  }
  return kExitClean;
}

int run_all_rules(const engine::Catalog& catalog, const std::string& format) {
  if (format == "json") {
    nlohmann::ordered_json rules = nlohmann::ordered_json::array();
    for (const engine::RuleSpec& rule : catalog.rules()) rules.push_back(rule_json(rule));
    std::cout << rules.dump(2) << '\n';
    return kExitClean;
  }
  bool first = true;
  for (const engine::RuleSpec& rule : catalog.rules()) {
    if (!first) std::cout << '\n';
    first = false;
    write_markdown(rule, std::cout);
  }
  return kExitClean;
}

int run_rules(const engine::Catalog& catalog, const std::string& format, const std::string& write_docs_directory) {
  if (!write_docs_directory.empty()) return write_docs(catalog, write_docs_directory);
  if (format == "markdown") {
    write_index(catalog, std::cout);
    return kExitClean;
  }
  if (format == "json") {
    nlohmann::json rules = nlohmann::json::array();
    for (const engine::RuleSpec& rule : catalog.rules()) {
      rules.push_back({{"code", rule.code},
                       {"name", rule.name},
                       {"summary", rule.summary},
                       {"language", language_name(rule.language)},
                       {"severity", to_string(rule.severity)},
                       {"default_enabled", rule.default_enabled},
                       {"kind", engine::to_string(rule.kind)},
                       {"since", rule.since},
                       {"removed_in", rule.removed_in.empty() ? nlohmann::json() : nlohmann::json(rule.removed_in)},
                       {"fix", engine::fix_label(rule)}});
    }
    std::cout << rules.dump(2) << '\n';
    return kExitClean;
  }
  size_t name_width = 4;
  size_t fix_width = 3;
  for (const engine::RuleSpec& rule : catalog.rules()) {
    name_width = std::max(name_width, rule.name.size());
    fix_width = std::max(fix_width, engine::fix_label(rule).size());
  }
  std::cout << std::left << std::setw(7) << "CODE" << std::setw(static_cast<int>(name_width) + 2) << "NAME"
            << std::setw(7) << "SINCE" << std::setw(9) << "SEVERITY" << std::setw(9) << "DEFAULT"
            << std::setw(static_cast<int>(fix_width) + 2) << "FIX"
            << "SUMMARY\n";
  for (const engine::RuleSpec& rule : catalog.rules()) {
    std::cout << std::left << std::setw(7) << rule.code << std::setw(static_cast<int>(name_width) + 2) << rule.name
              << std::setw(7) << rule.since << std::setw(9) << to_string(rule.severity) << std::setw(9)
              << (rule.default_enabled ? "on" : "off") << std::setw(static_cast<int>(fix_width) + 2)
              << engine::fix_label(rule) << rule.summary << '\n';
  }
  return kExitClean;
}

}  // namespace torchmigrate::cli
