// SPDX-License-Identifier: MIT
// The subcommands of the `torchmigrate` executable. Each returns the process exit code:
// 0 nothing found, 1 findings, 2 usage or configuration error.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace torchmigrate::engine {
class Catalog;
}

namespace torchmigrate::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;

struct CheckOptions {
  std::vector<std::string> paths;
  std::string stdin_filename;  // the name of the file read from standard input (`-`)
  std::string shard;           // K/N: check only this CI job's share of the files
  std::vector<std::string> select, extend_select, ignore, policies;
  std::string output_format;  // empty: the configuration's, else concise
  std::string output_file;  // empty: stdout
  std::string min_torch;
  std::string target_version;
  std::string compile_database_dir;
  std::string config_path;  // --config PATH
  // Every --config as given: a file (at most one), or inline `KEY = VALUE` settings.
  std::vector<std::string> config_args;
  bool ignore_noqa = false;  // suppression comments suppress nothing
  std::vector<std::string> extend_fixable;
  bool isolated = false;       // ignore every configuration file
  bool force_exclude = false;  // apply excludes to files named on the command line
  bool respect_gitignore = false;
  bool no_respect_gitignore = false;
  std::vector<std::string> exclude, extend_exclude;  // globs, relative to the working directory
  std::vector<std::string> per_file_ignores;         // GLOB:CODE (a bare CODE continues the previous glob)
  std::vector<std::string> fixable, unfixable;
  std::string project_root;    // CI report and baseline paths are relative to it
  std::string baseline;        // report only findings not in this baseline
  std::string write_baseline;  // record the current findings
  bool baseline_progress = false;  // `report`: keep the baseline's findings, mark new ones, count fixed ones
  bool add_noqa = false;
  bool follow_links = false;   // let --fix and --add-noqa write through links that leave the project
  std::string cache_dir;       // overrides the configuration's cache-dir
  bool no_cache = false;
  bool fix = false;
  bool unsafe_fixes = false;
  bool diff = false;
  bool fix_only = false;    // apply fixes, report only what could not be done
  bool show_fixes = false;  // list the fixes applied, per file and rule
  bool exit_zero = false;
  bool exit_non_zero_on_fix = false;
  bool statistics = false;
  std::string color = "auto";  // auto (a terminal, unless NO_COLOR; FORCE_COLOR forces), always, never
  bool quiet = false;          // the findings only: no summary, no torch range line
  bool silent = false;         // no report at all: the exit code says it
  bool verbose = false;        // configuration per project and phase timings on stderr
  bool show_settings = false;  // print each path's resolved context instead of checking
  bool show_files = false;     // print the files that would be checked instead of checking
  unsigned jobs = 0;
};

void add_check_options(CLI::App& command, CheckOptions& options);
// Takes `options` to sort its --config arguments into the file and the inline settings.
int run_check(CheckOptions& options, const engine::Catalog& catalog);
// One rule's docs; format "text" (Markdown) or "json".
int run_rule(const engine::Catalog& catalog, const std::string& code, const std::string& format);
// Every rule's docs: Markdown one after the other, or a JSON array.
int run_all_rules(const engine::Catalog& catalog, const std::string& format);
// The table of rules (format "text", "json" or "markdown"), or, with a directory, the Markdown docs of every
// rule plus a README.md index written there (docs/rules is generated this way).
int run_rules(const engine::Catalog& catalog, const std::string& format, const std::string& write_docs_directory);
// Serves the Language Server Protocol over stdin/stdout until the client exits.
int run_server(const engine::Catalog& catalog);

}  // namespace torchmigrate::cli
