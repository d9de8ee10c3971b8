// SPDX-License-Identifier: MIT
// `torchmigrate check`: builds settings from the flags, runs the session, prints the report
// or the diff, and turns the result into the exit code.
#include <algorithm>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/cli/check_output.hpp"
#include "torchmigrate/cli/check_run.hpp"
#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/cli/kept_until_exit.hpp"
#include "torchmigrate/cli/phase_times.hpp"
#include "torchmigrate/cli/progress.hpp"
#include "torchmigrate/cli/project_context.hpp"
#include "torchmigrate/cli/report_root.hpp"
#include "torchmigrate/cli/shard.hpp"
#include "torchmigrate/cli/shard_result.hpp"
#include "torchmigrate/cli/stdin_input.hpp"
#include "torchmigrate/cli/suggest.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/run/baseline.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"
#include "torchmigrate/engine/run/session.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/torch_range.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/unified_diff.hpp"

namespace torchmigrate::cli {
namespace {

// Each selector normalized (`tm201`, ` TM202`) and checked against the catalog.
std::vector<std::string> checked_selectors(const std::vector<std::string>& selectors, const engine::Catalog& catalog) {
  std::vector<std::string> out;
  for (const std::string& selector : selectors) {
    out.push_back(engine::normalize_selector(selector));
    engine::validate_selector(out.back(), catalog);
  }
  return out;
}

engine::CliOverrides overrides_from(const CheckOptions& options, const engine::Catalog& catalog) {
  engine::CliOverrides overrides;
  overrides.select = checked_selectors(options.select, catalog);
  overrides.extend_select = checked_selectors(options.extend_select, catalog);
  overrides.ignore = checked_selectors(options.ignore, catalog);
  overrides.extend_fixable = checked_selectors(options.extend_fixable, catalog);
  overrides.ignore_noqa = options.ignore_noqa;
  overrides.unsafe_fixes = options.unsafe_fixes;
  if (!options.min_torch.empty()) {
    try {
      engine::parse_min_torch(options.min_torch);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(std::string("--min-torch: ") + error.what());
    }
    overrides.min_torch = options.min_torch;
  }
  if (!options.target_version.empty()) {
    (void)catalog.parse_target(options.target_version);
    overrides.target_version = options.target_version;
  }
  if (options.respect_gitignore) overrides.respect_gitignore = true;
  if (options.no_respect_gitignore) overrides.respect_gitignore = false;
  std::error_code error;
  std::filesystem::path here = std::filesystem::current_path(error);
  auto rooted = [&](const std::vector<std::string>& globs) {
    std::vector<engine::RootedGlob> out;
    for (const std::string& glob : globs) out.push_back({here, glob});
    return out;
  };
  if (!options.exclude.empty()) overrides.exclude = rooted(options.exclude);
  overrides.extend_exclude = rooted(options.extend_exclude);
  // `--per-file-ignores 'tests/**:TM2,TM3'`: the comma split leaves `TM3` without a glob, so it
  // belongs to the one before it.
  for (const std::string& entry : options.per_file_ignores) {
    size_t colon = entry.rfind(':');
    if (colon == std::string::npos) {
      if (overrides.per_file_ignores.empty()) {
        throw std::invalid_argument("--per-file-ignores takes GLOB:CODES, e.g. 'tests/**:TM2', not `" + entry + "`");
      }
      std::string code = engine::normalize_selector(entry);
      engine::validate_selector(code, catalog);
      overrides.per_file_ignores.back().second.push_back(code);
      continue;
    }
    std::string glob = entry.substr(0, colon), code = engine::normalize_selector(entry.substr(colon + 1));
    if (glob.empty() || code.empty()) {
      throw std::invalid_argument("--per-file-ignores takes GLOB:CODES, e.g. 'tests/**:TM2', not `" + entry + "`");
    }
    engine::validate_selector(code, catalog);
    overrides.per_file_ignores.push_back({{here, glob}, {code}});
  }
  if (!options.fixable.empty()) overrides.fixable = checked_selectors(options.fixable, catalog);
  overrides.unfixable = checked_selectors(options.unfixable, catalog);
  for (const std::string& entry : options.policies) {
    size_t equals = entry.find('=');
    std::string code = equals == std::string::npos ? "ALL" : entry.substr(0, equals);
    std::string value = equals == std::string::npos ? entry : entry.substr(equals + 1);
    try {
      overrides.policy[code] = engine::validate_policy(code, value, catalog);
    } catch (const engine::PolicyError& error) {
      using Problem = engine::PolicyError::Problem;
      if (error.problem == Problem::UnknownRule) {
        throw std::invalid_argument("--policy names unknown rule `" + code + "`");
      }
      if (error.problem == Problem::NoChoice) {
        throw std::invalid_argument(std::string("--policy: ") + error.what() + " (only changed defaults do)");
      }
      throw;  // the value: parse_policy's message as it is
    }
  }
  return overrides;
}

}  // namespace

namespace {

// A list option takes one value per occurrence, split at commas, and may be repeated: CLI11's
// default for a vector would also swallow the paths after it (`--select TM1 src/`), and
// pre-commit appends file names right after a hook's `args`.
CLI::Option* add_list_option(CLI::App& command, const std::string& name, std::vector<std::string>& values,
                             const std::string& description) {
  return command.add_option(name, values, description)->delimiter(',')->allow_extra_args(false)->type_name("LIST");
}

}  // namespace

namespace {

// What to check and which rules and fixes apply.
void add_selection_options(CLI::App& command, CheckOptions& options) {
  command.add_option("PATH", options.paths, "Files or directories to check (default: .); `-` reads standard input");
  command.add_option("--stdin-filename", options.stdin_filename,
                     "The path of the file read from standard input: its settings, project and name in the report")
      ->type_name("PATH");
  add_list_option(command, "--select", options.select,
                  "Rules to enable: codes, prefixes (TM2) or ALL; replaces the default set");
  add_list_option(command, "--extend-select", options.extend_select, "Rules to enable on top of the selection");
  add_list_option(command, "--ignore", options.ignore, "Rules to disable: codes or prefixes");
  command.add_flag("--fix,!--no-fix", options.fix,
                   "Apply safe fixes in place (--no-fix: do not, whatever came before)");
  command.add_flag("--unsafe-fixes,!--no-unsafe-fixes", options.unsafe_fixes,
                   "Also apply (and show as fixable) unsafe fixes");
  command.add_flag("--diff", options.diff,
                   "Print the fixes as a unified diff instead of writing them (exit 1 when there is one)");
  command.add_flag("--fix-only,!--no-fix-only", options.fix_only,
                   "Apply fixes without reporting the findings that remain");
  command.add_flag("--show-fixes,!--no-show-fixes", options.show_fixes, "List the fixes applied, per file and rule");
  command.add_flag("-e,--exit-zero", options.exit_zero, "Exit 0 even when findings remain");
  command.add_flag("--exit-non-zero-on-fix", options.exit_non_zero_on_fix,
                   "Exit 1 if any fix was applied, even when no finding remains");
  command
      .add_option("--config", options.config_args,
                  "A configuration file for every checked file (instead of the nearest one), or a setting "
                  "over every configuration file: --config 'select = [\"TM2\"]' (repeatable)")
      ->allow_extra_args(false)
      ->type_name("PATH|KEY=VALUE");
  command.add_flag("--ignore-noqa", options.ignore_noqa, "Ignore every suppression comment (# noqa, NOLINT)");
  command.add_flag("--isolated", options.isolated, "Ignore every configuration file");
  add_list_option(command, "--exclude", options.exclude,
                  "Paths or globs to skip instead of the configuration's `exclude` (the built-in skips stay)");
  add_list_option(command, "--extend-exclude", options.extend_exclude, "More paths or globs to skip");
  // Ruff spells the adding flag --extend-per-file-ignores; this one always adds.
  add_list_option(command, "--per-file-ignores,--extend-per-file-ignores", options.per_file_ignores,
                  "GLOB:CODES to ignore in matching files, on top of the configuration's (e.g. 'tests/**:TM2')")
      ->type_name("GLOB:CODES");
  add_list_option(command, "--fixable", options.fixable,
                  "Rules whose fixes may apply (default: all); replaces the configuration's `fixable`");
  add_list_option(command, "--unfixable", options.unfixable, "Rules whose fixes never apply (reported, not fixed)");
  add_list_option(command, "--extend-fixable", options.extend_fixable,
                  "Rules whose fixes may apply, on top of `fixable` (and against `unfixable`: the more specific wins)");
  command.add_flag("--force-exclude,!--no-force-exclude", options.force_exclude,
                   "Apply excludes to files named on the command line too (as pre-commit passes them)");
  command.add_flag("--respect-gitignore", options.respect_gitignore, "Skip files ignored by git (the default)");
  command.add_flag("--no-respect-gitignore", options.no_respect_gitignore, "Check files even if git ignores them");
  command.add_option("--project-root", options.project_root,
                     "Directory that CI report and baseline paths are relative to (default: the git top-level)")
      ->type_name("DIR");
  command.add_option("--baseline", options.baseline, "Report only findings not recorded in this baseline file");
  command.add_option("--write-baseline", options.write_baseline, "Record the current findings in this baseline file");
  command.add_flag("--add-noqa", options.add_noqa, "Add a suppression comment for every current finding");
  command.add_flag("--follow-links", options.follow_links,
                   "Let --fix and --add-noqa write through a symbolic link named on the command line to a file "
                   "outside the project");
}

// `--output-format jsn`: the formats, and the one meant when it is a typo.
CLI::Validator known_format() {
  std::string choices = "{";
  for (const std::string& name : output::format_names()) choices += (choices.size() > 1 ? "," : "") + name;
  choices += "}";
  return CLI::Validator(
      [](std::string& value) -> std::string {
        std::vector<std::string> names = output::format_names();
        if (std::find(names.begin(), names.end(), value) != names.end()) return {};
        std::string message = "unknown output format `" + value + "`";
        if (auto suggestion = closest_name(value, names)) message += "; did you mean `" + *suggestion + "`?";
        message += " (one of:";
        for (const std::string& name : names) message += " " + name;
        return message + ")";
      },
      // As CLI11's IsMember writes it: the help and the shell completions read the choices here.
      choices);
}

// How the run goes and what it prints.
void add_run_options(CLI::App& command, CheckOptions& options) {
  command.add_option("--cache-dir", options.cache_dir,
                     "Cache findings per file here (default: the configuration's cache-dir; none without it)")
      ->envname("TORCHMIGRATE_CACHE_DIR");
  command.add_flag("-n,--no-cache", options.no_cache, "Do not read or write the cache");
  command.add_option("--output-format", options.output_format, "Report format (default: concise)")
      ->envname("TORCHMIGRATE_OUTPUT_FORMAT")
      ->check(known_format());
  command.add_option("-o,--output-file", options.output_file, "Write the report to this file instead of stdout");
  command.add_flag("--statistics", options.statistics, "Print the number of findings per rule instead of the findings");
  add_list_option(command, "--policy", options.policies,
                  "For changed defaults: CODE=keep-old|adopt-new (or just keep-old|adopt-new for all)");
  command.add_option("--min-torch", options.min_torch,
                     "Oldest torch version the project still supports (default: from the project's torch pins, "
                     "else " +
                         std::string(engine::builtin_release_names().from) + ")");
  command.add_option("--target-version", options.target_version,
                     "Torch release the project upgrades to, MAJOR.MINOR or latest (default " +
                         std::string(engine::builtin_release_names().first_to) + ")");
  command.add_option("-p", options.compile_database_dir,
                     "Directory holding compile_commands.json for C/C++/CUDA files (default: searched upwards)")
      ->check(CLI::ExistingDirectory);
  command.add_option("-j,--jobs", options.jobs, "Worker threads (default: the processors this process may use)");
  command.add_option("--color", options.color,
                     "Colour the text report: auto (on a terminal; NO_COLOR and FORCE_COLOR are honoured), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command.add_flag("-q,--quiet", options.quiet, "Print the findings only: no summary, no torch range line");
  command.add_flag("-s,--silent", options.silent, "Print no report; only the exit code tells");
  command.add_flag("-v,--verbose", options.verbose,
                   "Also say which configuration applied to each project and how long each phase took (stderr)");
  command.add_option("--shard", options.shard,
                     "Check only share K of N of the files (1 <= K <= N), split by size, for a CI matrix")
      ->type_name("K/N")
      ->envname("TORCHMIGRATE_SHARD");
  command.add_flag("--show-files", options.show_files,
                   "Print the files that would be checked (after excludes and .gitignore) and exit");
  command.add_flag("--show-settings", options.show_settings,
                   "Print each path's resolved context (project, torch range, configuration, rules) and exit");
}

}  // namespace

void add_check_options(CLI::App& command, CheckOptions& options) {
  add_selection_options(command, options);
  add_run_options(command, options);
}

namespace {

// As Ruff: `--config PATH` names the configuration file, `--config 'KEY = VALUE'` sets one key
// over every configuration file. An argument that is a file, or has no `=`, is the path.
std::optional<engine::ConfigFile> sort_config_args(CheckOptions& options, const engine::Catalog& catalog) {
  std::string inline_text;
  for (const std::string& argument : options.config_args) {
    std::error_code error;
    if (std::filesystem::is_regular_file(argument, error) || argument.find('=') == std::string::npos) {
      if (!options.config_path.empty()) {
        throw std::invalid_argument("--config names two configuration files (`" + options.config_path + "`, `" +
                                    argument + "`); pass one, and settings as --config 'KEY = VALUE'");
      }
      options.config_path = argument;
      continue;
    }
    inline_text += argument + '\n';
  }
  if (inline_text.empty()) return std::nullopt;
  return engine::read_inline_config(inline_text, catalog);
}

// Flags that cannot go together, or values that cannot be read: the message, or "".
std::string usage_error(const CheckOptions& options) {
  // --add-noqa writes suppressions instead of fixes: it would silently ignore these (and --diff
  // promises to write nothing).
  for (auto [set, flag] : {std::pair{options.diff, "--diff"}, {options.fix, "--fix"}, {options.fix_only, "--fix-only"}}) {
    if (options.add_noqa && set) {
      return std::string("--add-noqa cannot be combined with ") + flag +
             "; run the fixes first, then --add-noqa for what remains";
    }
  }
  if (!options.config_path.empty() && options.isolated) return "--config PATH and --isolated cannot be combined";
  if (options.add_noqa && (!options.baseline.empty() || !options.write_baseline.empty())) {
    return "--add-noqa suppresses every current finding, so a baseline has nothing to do; use one or the other";
  }
  if (std::string error = stdin_usage_error(options); !error.empty()) return error;
  if (!options.shard.empty()) {
    try {
      parse_shard(options.shard);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
  }
  if (options.fix_only && options.statistics) {
    return "--fix-only reports no findings for --statistics to count; use --fix --statistics to count what "
           "remains, or --fix-only --show-fixes to list what was fixed";
  }
  return "";
}

}  // namespace

int run_check(CheckOptions& options, const engine::Catalog& catalog) {
  engine::CliOverrides overrides;
  try {
    overrides = overrides_from(options, catalog);
    overrides.inline_config = sort_config_args(options, catalog);
  } catch (const std::invalid_argument& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  } catch (const engine::ConfigError& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  if (std::string error = usage_error(options); !error.empty()) {
    std::cerr << "torchmigrate: error: " << error << '\n';
    return kExitUsage;
  }
  for (const std::string& path : ignored_for_stdin(options)) {
    std::cerr << "torchmigrate: warning: ignoring `" << path << "` in favour of standard input (--stdin-filename)\n";
  }
  std::optional<std::filesystem::path> config_path;
  if (!options.config_path.empty()) config_path = options.config_path;
  engine::Workspace& workspace =
      kept_until_exit<engine::Workspace>(catalog, checks::builtin_registry(), overrides, config_path, options.isolated);
  try {
    return run_check_in(options, workspace);
  } catch (const engine::ConfigError& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
}

}  // namespace torchmigrate::cli
