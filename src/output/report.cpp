// SPDX-License-Identifier: MIT
// Format names and dispatch, plus the helpers several formats share (summary, paths, names).
#include "torchmigrate/output/report.hpp"

#include <filesystem>
#include <stdexcept>
#include <utility>

#include "torchmigrate/engine/fixer.hpp"

namespace torchmigrate::output {
namespace {

const std::vector<std::pair<std::string, Format>>& formats() {
  static const std::vector<std::pair<std::string, Format>> table{
      {"concise", Format::Concise}, {"full", Format::Full},     {"json", Format::Json},
      {"json-lines", Format::JsonLines}, {"sarif", Format::Sarif}, {"github", Format::Github},
      {"gitlab", Format::Gitlab},   {"junit", Format::Junit}};
  return table;
}

}  // namespace

const std::vector<std::string>& format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, format] : formats()) out.push_back(name);
    return out;
  }();
  return names;
}

Format parse_format(std::string_view name) {
  for (const auto& [known, format] : formats()) {
    if (known == name) return format;
  }
  std::string choices;
  for (const std::string& known : format_names()) choices += (choices.empty() ? "" : ", ") + known;
  throw std::invalid_argument("unknown output format `" + std::string(name) + "`; expected one of: " + choices);
}

std::string report_path(const Report& report, const SourceFile& file) {
  namespace fs = std::filesystem;
  fs::path path = fs::path(file.path()).lexically_normal();
  if (path.is_absolute() && !report.root.empty()) {
    fs::path relative = path.lexically_relative(fs::path(report.root).lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") path = relative;
  }
  std::string text = path.generic_string();
  return text.empty() ? file.path() : text;
}

std::string rule_name(const Report& report, std::string_view code) {
  if (report.catalog != nullptr) {
    if (const engine::RuleSpec* rule = report.catalog->find(code)) return rule->name;
  }
  if (code == kIoErrorCode) return "io-error";
  if (code == kParseErrorCode) return "parse-error";
  if (code == kInternalErrorCode) return "internal-error";
  return std::string(code);
}

bool fixable(const Diagnostic& diagnostic, const engine::Settings& settings) {
  const Fix* fix = engine::chosen_fix(diagnostic, settings);
  return fix != nullptr && !fix->edits.empty() && engine::will_apply(*fix, settings);
}

void write_summary(const Report& report, std::ostream& out) {
  size_t total = 0, fixable_now = 0, unsafe_hidden = 0;
  for (const FileFindings& findings : report.files) {
    const engine::Settings& settings = report.settings_for(findings);
    engine::Settings with_unsafe = settings;
    with_unsafe.unsafe_fixes = true;
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      ++total;
      if (fixable(diagnostic, settings)) {
        ++fixable_now;
      } else if (fixable(diagnostic, with_unsafe)) {
        ++unsafe_hidden;
      }
    }
  }
  if (report.fix_mode) {
    if (total == 0 && report.fixed == 0) {
      out << "All checks passed!\n";
      return;
    }
    out << "Found " << total + report.fixed << " error" << (total + report.fixed == 1 ? "" : "s") << " ("
        << report.fixed << " fixed, " << total << " remaining).\n";
  } else if (total == 0) {
    out << "All checks passed!\n";
    return;
  } else {
    out << "Found " << total << " error" << (total == 1 ? "" : "s") << ".\n";
  }
  if (fixable_now > 0) {
    out << "[*] " << fixable_now << " fixable with the `--fix` option";
    if (unsafe_hidden > 0) {
      out << " (" << unsafe_hidden << " hidden fix" << (unsafe_hidden == 1 ? "" : "es")
          << " can be enabled with the `--unsafe-fixes` option)";
    }
    out << ".\n";
  } else if (unsafe_hidden > 0) {
    out << "No fixes available (" << unsafe_hidden << " hidden fix" << (unsafe_hidden == 1 ? "" : "es")
        << " can be enabled with the `--unsafe-fixes` option).\n";
  }
}

void write(Format format, const Report& report, std::ostream& out) {
  switch (format) {
    case Format::Concise: write_concise(report, out); break;
    case Format::Full: write_full(report, out); break;
    case Format::Json: write_json(report, out); break;
    case Format::JsonLines: write_json_lines(report, out); break;
    case Format::Sarif: write_sarif(report, out); break;
    case Format::Github: write_github(report, out); break;
    case Format::Gitlab: write_gitlab(report, out); break;
    case Format::Junit: write_junit(report, out); break;
  }
}

}  // namespace torchmigrate::output
