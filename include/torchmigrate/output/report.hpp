// SPDX-License-Identifier: MIT
// What the output formats print: each file's findings, plus what the fixer did. One writer
// per format (src/output/<format>.cpp); `write` picks one by name.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/run/baseline.hpp"

namespace torchmigrate::output {

struct FileFindings {
  std::shared_ptr<const SourceFile> file;  // the text the findings' offsets refer to
  std::vector<Diagnostic> diagnostics;
  // The settings the file was checked with (its project's policy and torch range decide
  // which fixes apply); null: the report's.
  const engine::Settings* settings = nullptr;
  size_t project = 0;  // index into Report::projects (when the run lists them)
  // With a baseline kept for progress (`report --baseline`): per finding, whether the baseline
  // did not record it. Empty otherwise.
  std::vector<bool> new_since{};
};

// One project of the run: its directory as shown and the torch range its pins or configuration give.
struct ProjectSummary {
  std::string root;
  std::string torch_range;  // "2.7-2.9", ">= 2.7" (engine::TorchRange::span)
  std::string source;     // "requirements.txt:1", "--min-torch", "default"
  size_t files = 0;       // files checked in it
};

// Progress against a recorded baseline (`report --baseline FILE`).
struct BaselineProgress {
  std::string path;
  size_t recorded = 0;    // findings the baseline holds
  size_t still_open = 0;  // recorded and still found
  size_t new_since = 0;   // found, could be recorded, and are not
  std::vector<engine::BaselineEntry> fixed;  // recorded and no longer found

  [[nodiscard]] size_t fixed_count() const { return recorded - still_open; }
};

struct Report {
  std::vector<FileFindings> files;  // sorted by path
  const engine::Catalog* catalog = nullptr;  // the run's; never null once a report is written
  const engine::Settings* settings = nullptr;
  int fixed = 0;                    // fixes applied by --fix
  bool fix_mode = false;
  // Absolute directory the CI formats (SARIF, GitHub, GitLab, JUnit) print paths relative to:
  // the repository root, so a report is the same from any directory.
  std::string root;
  // Absolute directory relative file paths are relative to (the working directory); empty: root.
  std::string base;
  bool color = false;    // ANSI colour in the text formats (a terminal, or --color always)
  bool summary = true;   // the closing "Found N ..." lines of the text formats (off: --quiet)
  size_t files_checked = 0;              // every file of the run, with findings or not
  std::vector<ProjectSummary> projects;  // by root; empty when the caller does not list them
  const BaselineProgress* progress = nullptr;

  [[nodiscard]] const engine::Settings& settings_for(const FileFindings& findings) const {
    return findings.settings != nullptr ? *findings.settings : *settings;
  }
  // The catalog rule of a finding's code; nullptr for file problems.
  [[nodiscard]] const engine::RuleSpec* rule(std::string_view code) const {
    return catalog != nullptr ? catalog->find(code) : nullptr;
  }
};

// One per name of engine::kOutputFormatNames, in its order: parse_format maps a name by position.
enum class Format {
  Concise,
  Full,
  Grouped,
  Pylint,
  Json,
  JsonLines,
  Rdjson,
  Sarif,
  Github,
  Gitlab,
  Junit,
  Markdown,
  Html
};

// Every --output-format name, in the order the help text lists them.
const std::vector<std::string>& format_names();
// Parses a --output-format value; throws std::invalid_argument listing the choices.
Format parse_format(std::string_view name);

void write_concise(const Report& report, std::ostream& out);
void write_full(const Report& report, std::ostream& out);
// Ruff's grouped format: the findings under their file's path, then the summary.
void write_grouped(const Report& report, std::ostream& out);
// `path:line: [CODE] message`, as pylint and flake8 print it.
void write_pylint(const Report& report, std::ostream& out);
void write_json(const Report& report, std::ostream& out);
void write_json_lines(const Report& report, std::ostream& out);
// Reviewdog's diagnostic format (rdjson), with fixes as suggested changes.
void write_rdjson(const Report& report, std::ostream& out);
void write_sarif(const Report& report, std::ostream& out);
void write_github(const Report& report, std::ostream& out);
void write_gitlab(const Report& report, std::ostream& out);
void write_junit(const Report& report, std::ostream& out);
void write_markdown(const Report& report, std::ostream& out);
// The migration report: one self-contained HTML page (src/output/html/).
void write_html(const Report& report, std::ostream& out);
// The closing lines of the text formats: counts and how many more `--fix` could fix.
void write_summary(const Report& report, std::ostream& out);
void write(Format format, const Report& report, std::ostream& out);

// --statistics: one line per rule code (count, code, fixable marker, rule name), most
// frequent first; a JSON array instead when `format` is Json.
void write_statistics(Format format, const Report& report, std::ostream& out);

struct Statistic {
  std::string code;
  std::string name;
  size_t count = 0;
  size_t fixable_count = 0;
};
// The findings per rule, most frequent first (what --statistics prints).
std::vector<Statistic> rule_statistics(const Report& report);

// "[*] " when --fix (or --unsafe-fixes) would apply the diagnostic's fix.
bool fixable(const Diagnostic& diagnostic, const engine::Settings& settings);

// One finding as the json and json-lines formats print it.
nlohmann::json finding_json(const Report& report, const FileFindings& findings, const Diagnostic& diagnostic);

// The file's path for CI systems: relative to `report.root` when it lies below it, with
// `/` separators and no leading `./`; otherwise the path as given (engine::root_relative).
std::string report_path(const Report& report, const SourceFile& file);

// The rule's kebab-case name, or a name for the internal codes (io-error, parse-error...).
std::string rule_name(const Report& report, std::string_view code);

}  // namespace torchmigrate::output
