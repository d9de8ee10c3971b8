// SPDX-License-Identifier: MIT
// What `check` prints besides the report: file problems, the list of fixes, --output-file,
// and the files --add-noqa rewrites.
#include "torchmigrate/cli/check_output.hpp"

#include <algorithm>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <system_error>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/run/confined_write.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/output/escape.hpp"

namespace torchmigrate::cli {

// File problems (unreadable, skipped, not written, rolled back) for the modes that print no
// report on stdout: they go to stderr so they are never lost.
bool print_file_problems(const std::vector<engine::FileOutcome>& outcomes, std::ostream& err) {
  bool failed = false;
  for (const engine::FileOutcome& outcome : outcomes) {
    for (const Diagnostic& diagnostic : outcome.diagnostics) {
      if (!engine::is_file_problem(diagnostic)) continue;
      std::string_view level = diagnostic.severity == Severity::Error ? "error"
                               : diagnostic.severity == Severity::Warning ? "warning"
                                                                          : "note";
      err << "torchmigrate: " << level << ": " << output::escape_control(outcome.source->path()) << ": "
          << diagnostic.code << ' ' << output::escape_control(diagnostic.message) << '\n';
      failed = failed || diagnostic.severity == Severity::Error;
    }
  }
  return failed;
}

// Ruff's `--show-fixes` list: "Fixed N findings:" (Ruff says errors, for warnings too) then, per
// file, a count per rule.
void print_fix_list(const std::vector<engine::FileOutcome>& outcomes, const engine::Catalog& catalog, std::ostream& out) {
  size_t total = 0;
  for (const engine::FileOutcome& outcome : outcomes) total += outcome.applied.size();
  if (total == 0) return;
  out << "Fixed " << total << " finding" << (total == 1 ? "" : "s") << ":\n";
  for (const engine::FileOutcome& outcome : outcomes) {
    if (outcome.applied.empty()) continue;
    std::map<std::string, size_t> counts;
    for (const engine::AppliedFix& fix : outcome.applied) ++counts[fix.code];
    size_t width = 1;
    for (const auto& [code, count] : counts) width = std::max(width, std::to_string(count).size());
    out << "- " << output::escape_control(outcome.source->path()) << ":\n";
    for (const auto& [code, count] : counts) {
      std::string number = std::to_string(count);
      const engine::RuleSpec* rule = catalog.find(code);
      out << "    " << std::string(width - number.size(), ' ') << number << " \u00d7 " << code;
      if (rule != nullptr) out << " (" << rule->name << ")";
      out << '\n';
    }
  }
  out << '\n';
}

// Colour only for a person: --color, then FORCE_COLOR and NO_COLOR (https://no-color.org), then
// whether stdout is a terminal that understands it.
bool use_color(const std::string& choice, bool to_stdout) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
  };
  if (set("FORCE_COLOR") && std::string_view(std::getenv("FORCE_COLOR")) != "0") return true;
  if (set("NO_COLOR") || !to_stdout) return false;
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) == 1 && !(term != nullptr && std::string_view(term) == "dumb");
}

// Opens --output-file for writing, creating its parent directories; returns an error message.
std::string open_output_file(const std::string& path, std::ofstream& file) {
  namespace fs = std::filesystem;
  fs::path parent = fs::path(path).parent_path();
  std::error_code error;
  if (!parent.empty()) fs::create_directories(parent, error);
  if (error) return "cannot create the directory of `" + path + "`: " + error.message();
  errno = 0;
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    return "cannot write `" + path + "`" + (errno != 0 ? ": " + std::generic_category().message(errno) : std::string());
  }
  return {};
}

int close_output_file(const std::string& path, std::ofstream& file, int exit_code) {
  if (path.empty()) return exit_code;
  file.close();
  if (file) return exit_code;
  std::cerr << "torchmigrate: error: cannot write `" << path << "`\n";
  return kExitUsage;
}

bool statistics_format_refused(const std::string& format_name, std::ostream& err) {
  // As in Ruff, the statistics are text (concise, full) or JSON; any other format would be
  // silently replaced by text.
  if (format_name == "concise" || format_name == "full" || format_name == "json") return false;
  err << "torchmigrate: error: --statistics prints text or json, not --output-format " << format_name << '\n';
  return true;
}

void write_report(const std::string& format_name, bool statistics, const output::Report& report, std::ostream& out) {
  output::Format format = output::parse_format(format_name);
  if (statistics) {
    output::write_statistics(format, report, out);
  } else {
    output::write(format, report, out);
  }
}

// --add-noqa: writes a suppression onto every line with a finding; returns the exit code.
int add_noqa_to_files(const std::vector<engine::FileOutcome>& outcomes,
                      const std::vector<engine::DiscoveredFile>& files, const engine::Catalog& catalog,
                      std::ostream& err, bool follow_links) {
  size_t added = 0;
  bool failed = print_file_problems(outcomes, err);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const engine::FileOutcome& outcome = outcomes[i];
    if (outcome.diagnostics.empty()) continue;
    engine::ReadResult read = engine::read_file(files[i].path);
    if (!read.text) continue;
    engine::DecodedSource decoded = engine::decode_source(*read.text);
    if (!decoded.skip_reason.empty() || decoded.text != outcome.source->text()) continue;
    engine::NoqaResult noqa = engine::add_noqa(*outcome.source, outcome.diagnostics, catalog);
    for (uint32_t line : noqa.skipped_lines) {
      err << "torchmigrate: warning: " << output::escape_control(outcome.source->path()) << ":" << line
          << ": a comment cannot go at the end of this line (inside a string or a continuation); add it by hand\n";
    }
    if (noqa.added == 0 || noqa.text == outcome.source->text()) continue;
    if (std::string outside = follow_links ? "" : engine::write_leaves_project(files[i].path); !outside.empty()) {
      err << "torchmigrate: error: " << output::escape_control(outcome.source->path()) << ": " << outside << '\n';
      failed = true;
      continue;
    }
    std::string error = engine::write_file_atomically(files[i].path, engine::encode_source(noqa.text, decoded.bom), *read.text);
    if (!error.empty()) {
      err << "torchmigrate: error: " << output::escape_control(outcome.source->path()) << ": " << error << '\n';
      failed = true;
      continue;
    }
    added += noqa.added;
  }
  err << "Added " << added << " noqa directive" << (added == 1 ? "" : "s") << ".\n";
  return failed ? kExitFindings : kExitClean;
}
output::BaselineProgress measure_progress(engine::Baseline& baseline, const std::vector<engine::FileOutcome>& outcomes,
                                          std::vector<std::vector<bool>>& new_since, const engine::Catalog& catalog) {
  output::BaselineProgress progress;
  progress.recorded = baseline.size();
  new_since.assign(outcomes.size(), {});
  for (size_t i = 0; i < outcomes.size(); ++i) {
    for (const Diagnostic& diagnostic : outcomes[i].diagnostics) {
      // One finding at a time, in order: the same matching as filtering the whole list.
      std::vector<Diagnostic> one{diagnostic};
      bool recorded = baseline.filter(*outcomes[i].source, one) == 1;
      bool is_new = !recorded && engine::baselinable(diagnostic.code, catalog) && !engine::is_file_problem(diagnostic);
      new_since[i].push_back(is_new);
      progress.still_open += recorded;
      progress.new_since += is_new;
    }
  }
  progress.fixed = baseline.unmatched();
  return progress;
}

}  // namespace torchmigrate::cli
