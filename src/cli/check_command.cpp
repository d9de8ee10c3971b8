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
#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/cli/kept_until_exit.hpp"
#include "torchmigrate/cli/phase_times.hpp"
#include "torchmigrate/cli/progress.hpp"
#include "torchmigrate/cli/project_context.hpp"
#include "torchmigrate/cli/report_root.hpp"
#include "torchmigrate/cli/shard.hpp"
#include "torchmigrate/cli/shard_result.hpp"
#include "torchmigrate/cli/stdin_input.hpp"
#include "torchmigrate/engine/add_noqa.hpp"
#include "torchmigrate/engine/baseline.hpp"
#include "torchmigrate/engine/catalog.hpp"
#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/file_io.hpp"
#include "torchmigrate/engine/linter.hpp"
#include "torchmigrate/engine/parallel.hpp"
#include "torchmigrate/engine/result_cache.hpp"
#include "torchmigrate/engine/session.hpp"
#include "torchmigrate/engine/torch_range.hpp"
#include "torchmigrate/engine/workspace.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/unified_diff.hpp"

namespace torchmigrate::cli {
namespace {

engine::CliOverrides overrides_from(const CheckOptions& options, const engine::Catalog& catalog) {
  engine::CliOverrides overrides;
  for (const auto* list : {&options.select, &options.extend_select, &options.ignore}) {
    for (const std::string& selector : *list) engine::validate_selector(selector, catalog);
  }
  overrides.select = options.select;
  overrides.extend_select = options.extend_select;
  overrides.ignore = options.ignore;
  overrides.unsafe_fixes = options.unsafe_fixes;
  if (!options.min_torch.empty()) {
    engine::TorchVersion::parse(options.min_torch);
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
      engine::validate_selector(entry, catalog);
      overrides.per_file_ignores.back().second.push_back(entry);
      continue;
    }
    std::string glob = entry.substr(0, colon), code = entry.substr(colon + 1);
    if (glob.empty() || code.empty()) {
      throw std::invalid_argument("--per-file-ignores takes GLOB:CODES, e.g. 'tests/**:TM2', not `" + entry + "`");
    }
    engine::validate_selector(code, catalog);
    overrides.per_file_ignores.push_back({{here, glob}, {code}});
  }
  for (const auto* list : {&options.fixable, &options.unfixable}) {
    for (const std::string& selector : *list) engine::validate_selector(selector, catalog);
  }
  if (!options.fixable.empty()) overrides.fixable = options.fixable;
  overrides.unfixable = options.unfixable;
  for (const std::string& entry : options.policies) {
    size_t equals = entry.find('=');
    std::string code = equals == std::string::npos ? "ALL" : entry.substr(0, equals);
    std::string value = equals == std::string::npos ? entry : entry.substr(equals + 1);
    if (code != "ALL") {
      const engine::RuleSpec* rule = catalog.find(code);
      if (rule == nullptr) throw std::invalid_argument("--policy names unknown rule `" + code + "`");
      if (!rule->fix_policies) {
        throw std::invalid_argument("--policy: " + code + " has no keep-old/adopt-new choice (only changed defaults do)");
      }
    }
    overrides.policy[code] = engine::parse_policy(value);
  }
  return overrides;
}

}  // namespace

int run_check_in(const CheckOptions& options, engine::Workspace& workspace);

namespace {

// A list option takes one value per occurrence, split at commas, and may be repeated: CLI11's
// default for a vector would also swallow the paths after it (`--select TM1 src/`), and
// pre-commit appends file names right after a hook's `args`.
CLI::Option* add_list_option(CLI::App& command, const std::string& name, std::vector<std::string>& values,
                             const std::string& description) {
  return command.add_option(name, values, description)->delimiter(',')->allow_extra_args(false)->type_name("LIST");
}

}  // namespace

void add_check_options(CLI::App& command, CheckOptions& options) {
  command.add_option("PATH", options.paths, "Files or directories to check (default: .); `-` reads standard input");
  command.add_option("--stdin-filename", options.stdin_filename,
                     "The path of the file read from standard input: its settings, project and name in the report")
      ->type_name("PATH");
  add_list_option(command, "--select", options.select,
                  "Rules to enable: codes, prefixes (TM2) or ALL; replaces the default set");
  add_list_option(command, "--extend-select", options.extend_select, "Rules to enable on top of the selection");
  add_list_option(command, "--ignore", options.ignore, "Rules to disable: codes or prefixes");
  command.add_flag("--fix", options.fix, "Apply safe fixes in place");
  command.add_flag("--unsafe-fixes", options.unsafe_fixes, "Also apply (and show as fixable) unsafe fixes");
  command.add_flag("--diff", options.diff,
                   "Print the fixes as a unified diff instead of writing them (exit 1 when there is one)");
  command.add_flag("--fix-only", options.fix_only, "Apply fixes without reporting the findings that remain");
  command.add_flag("--show-fixes", options.show_fixes, "List the fixes applied, per file and rule");
  command.add_flag("--exit-zero", options.exit_zero, "Exit 0 even when findings remain");
  command.add_flag("--exit-non-zero-on-fix", options.exit_non_zero_on_fix,
                   "Exit 1 if any fix was applied, even when no finding remains");
  command.add_option("--config", options.config_path,
                     "Use this configuration file for every checked file (instead of the nearest one)");
  command.add_flag("--isolated", options.isolated, "Ignore every configuration file");
  add_list_option(command, "--exclude", options.exclude,
                  "Paths or globs to skip instead of the configuration's `exclude` (the built-in skips stay)");
  add_list_option(command, "--extend-exclude", options.extend_exclude, "More paths or globs to skip");
  add_list_option(command, "--per-file-ignores", options.per_file_ignores,
                  "GLOB:CODES to ignore in matching files, on top of the configuration's (e.g. 'tests/**:TM2')")
      ->type_name("GLOB:CODES");
  add_list_option(command, "--fixable", options.fixable,
                  "Rules whose fixes may apply (default: all); replaces the configuration's `fixable`");
  add_list_option(command, "--unfixable", options.unfixable, "Rules whose fixes never apply (reported, not fixed)");
  command.add_flag("--force-exclude", options.force_exclude,
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
  command.add_option("--cache-dir", options.cache_dir,
                     "Cache findings per file here (default: the configuration's cache-dir; none without it)")
      ->envname("TORCHMIGRATE_CACHE_DIR");
  command.add_flag("--no-cache", options.no_cache, "Do not read or write the cache");
  command.add_option("--output-format", options.output_format, "Report format (default: concise)")
      ->envname("TORCHMIGRATE_OUTPUT_FORMAT")
      ->check(CLI::IsMember(output::format_names()));
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

int run_check(const CheckOptions& options) {
  const engine::Catalog& catalog = engine::Catalog::builtin();
  engine::CliOverrides overrides;
  try {
    overrides = overrides_from(options, catalog);
  } catch (const std::invalid_argument& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  // --add-noqa writes suppressions instead of fixes: it would silently ignore these (and --diff
  // promises to write nothing).
  for (auto [set, flag] : {std::pair{options.diff, "--diff"}, {options.fix, "--fix"}, {options.fix_only, "--fix-only"}}) {
    if (options.add_noqa && set) {
      std::cerr << "torchmigrate: error: --add-noqa cannot be combined with " << flag
                << "; run the fixes first, then --add-noqa for what remains\n";
      return kExitUsage;
    }
  }
  if (!options.config_path.empty() && options.isolated) {
    std::cerr << "torchmigrate: error: --config and --isolated cannot be combined\n";
    return kExitUsage;
  }
  if (options.add_noqa && (!options.baseline.empty() || !options.write_baseline.empty())) {
    std::cerr << "torchmigrate: error: --add-noqa suppresses every current finding, so a baseline has nothing "
                 "to do; use one or the other\n";
    return kExitUsage;
  }
  if (std::string error = stdin_usage_error(options); !error.empty()) {
    std::cerr << "torchmigrate: error: " << error << '\n';
    return kExitUsage;
  }
  for (const std::string& path : ignored_for_stdin(options)) {
    std::cerr << "torchmigrate: warning: ignoring `" << path << "` in favour of standard input (--stdin-filename)\n";
  }
  if (!options.shard.empty()) {
    try {
      parse_shard(options.shard);
    } catch (const std::invalid_argument& error) {
      std::cerr << "torchmigrate: error: " << error.what() << '\n';
      return kExitUsage;
    }
  }
  if (options.fix_only && options.statistics) {
    std::cerr << "torchmigrate: error: --fix-only reports no findings for --statistics to count; use --fix "
                 "--statistics to count what remains, or --fix-only --show-fixes to list what was fixed\n";
    return kExitUsage;
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

int run_check_in(const CheckOptions& options, engine::Workspace& workspace) {
  const engine::Catalog& catalog = workspace.catalog();
  const bool from_stdin = reads_stdin(options);
  // The named paths are not copied: a pre-commit run names thousands of files.
  std::vector<std::string> implied;
  if (from_stdin) {
    implied = {stdin_display_path(options)};
  } else if (options.paths.empty()) {
    implied = {"."};
  }
  const std::vector<std::string>& paths = implied.empty() ? options.paths : implied;
  workspace.set_run_paths(paths);
  if (options.show_settings) {
    workspace.set_compile_database_dir(options.compile_database_dir);
    print_settings(workspace, paths, std::cout);
    return kExitClean;
  }
  // The configuration of the first path also chooses the report format when no flag does.
  const engine::ResolvedConfig& first_config = workspace.config_for(paths.front());
  std::string format_name = !options.output_format.empty() ? options.output_format
                            : first_config.output_format     ? *first_config.output_format
                                                             : std::string("concise");
  if (options.statistics && statistics_format_refused(format_name, std::cerr)) return kExitUsage;

  // Opened before the run, so an unwritable path fails fast instead of after the work.
  std::ofstream output_file;
  if (!options.output_file.empty()) {
    std::string error = open_output_file(options.output_file, output_file);
    if (!error.empty()) {
      std::cerr << "torchmigrate: error: " << error << '\n';
      return kExitUsage;
    }
  }
  // Fixing standard input prints the fixed text on stdout, so the report goes to stderr.
  const bool fixed_text_to_stdout = from_stdin && (options.fix || options.fix_only) && !options.diff;
  std::ostream& out = !options.output_file.empty() ? output_file : fixed_text_to_stdout ? std::cerr : std::cout;
  PhaseTimes phases;
  size_t checked_files = 0;
  unsigned jobs = options.jobs == 0 ? engine::default_jobs() : options.jobs;
  auto finish = [&](int exit_code) {
    out.flush();
    if (options.verbose) {
      phases.end("report");
      phases.print(std::cerr, checked_files, jobs);
    }
    return close_output_file(options.output_file, output_file, exit_code);
  };

  engine::FixMode mode = options.diff                      ? engine::FixMode::Diff
                         : options.fix || options.fix_only ? engine::FixMode::Apply
                                                           : engine::FixMode::Report;
  if (options.add_noqa) mode = engine::FixMode::Report;
  // A plain report checks files while the walk still finds them. Fixes wait for the whole walk,
  // so that a bad configuration anywhere stops the run before a file is written; a shard needs
  // the whole list to take its share; with one job the walking thread is the only worker anyway.
  const bool streamed = !from_stdin && options.shard.empty() && !options.show_files && !options.add_noqa &&
                        mode == engine::FixMode::Report && jobs > 1;
  // Baselines fingerprint a finding by its enclosing def or class, --add-noqa edits the file and a
  // shard's JSON carries whole texts: only a plain report can do with the lines it shows.
  const bool whole_texts = mode != engine::FixMode::Report || options.add_noqa || !options.baseline.empty() ||
                           !options.write_baseline.empty() ||
                           (!options.shard.empty() && format_name == "json" && !options.statistics);
  const engine::TextKept kept = whole_texts ? engine::TextKept::Whole : engine::TextKept::ShownLines;
  workspace.set_compile_database_dir(options.compile_database_dir);
  // The cache serves report runs only: fixing always works on fresh findings.
  std::optional<engine::ResultCache>& cache = kept_until_exit<std::optional<engine::ResultCache>>();
  if (!options.no_cache && !options.show_files && mode == engine::FixMode::Report) {
    cache = engine::open_result_cache(options.cache_dir, first_config, std::cerr);
  }
  std::optional<ProgressLine> progress_line;
  const bool show_progress = !options.quiet && !options.silent;
  auto file_done = [&](const engine::FileOutcome& outcome) { progress_line->file_done(outcome.diagnostics.size()); };

  engine::Discovery& discovery = kept_until_exit<engine::Discovery>();
  // Projects list their files from this run's walk while it lasts (declared after `discovery`,
  // so forgotten before that is gone); a sharded run keeps only its share, so it walks anew.
  class WalkAdoption {
   public:
    explicit WalkAdoption(engine::Workspace& workspace) : workspace_(workspace) {}
    ~WalkAdoption() { workspace_.forget_walk(); }
    WalkAdoption(const WalkAdoption&) = delete;
    WalkAdoption& operator=(const WalkAdoption&) = delete;

   private:
    engine::Workspace& workspace_;
  };
  // Declared before `adoption`: when the walk throws, the walk is forgotten first, which wakes
  // the workers that wait for it (a project's facts wait for the walk's file list), and then
  // they are joined.
  std::optional<engine::StreamedSession> session;
  const engine::StreamedSession::LinterFor linter_for =
      [&](const engine::DiscoveredFile& file) -> const engine::Linter& { return workspace.linter_for(file); };
  std::optional<WalkAdoption> adoption;
  std::string stdin_bytes;
  if (from_stdin) {
    stdin_bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (auto file = stdin_file(options, workspace, stdin_bytes)) discovery.files.push_back(std::move(*file));
  } else {
    engine::DiscoveryFilter filter = workspace.filter(options.force_exclude);
    if (streamed) {
      progress_line.emplace(std::cerr, show_progress);  // drawn once the walk's notes are out
      workspace.begin_walk();
      adoption.emplace(workspace);  // a walk that throws must still wake whoever waits for it
      session.emplace(jobs, cache ? &*cache : nullptr, file_done, kept);
      // Each file's linter is resolved on the walking thread: a bad configuration stops the walk.
      filter.found = [&](const engine::DiscoveredFile& file, std::string_view real_path) {
        session->add(file, real_path, linter_for);
      };
    }
    discovery = engine::discover(paths, first_config.build_extensions, &filter);
    if (options.shard.empty()) {
      workspace.adopt_walk(paths, discovery.files);
      // In place: a temporary's destructor would forget the walk at once.
      if (!adoption) adoption.emplace(workspace);
    }
  }
  for (const std::string& error : discovery.errors) std::cerr << "torchmigrate: error: " << error << '\n';
  for (const std::string& note : discovery.notes) std::cerr << "torchmigrate: note: " << note << '\n';
  if (!discovery.errors.empty() && discovery.files.empty()) return kExitUsage;
  // A shard's JSON carries what `merge` needs, which depends on the whole run's file list.
  std::optional<ShardRun> shard_run;
  if (!options.shard.empty()) {
    Shard shard = parse_shard(options.shard);
    if (format_name == "json" && !options.statistics) shard_run = start_shard_run(options, shard, discovery.files);
    discovery.files = files_of_shard(discovery.files, shard);
  }
  checked_files = discovery.files.size();
  phases.end(streamed ? "discovery (checking meanwhile)" : "discovery");
  if (options.show_files) {
    for (const engine::DiscoveredFile& file : discovery.files) out << file.path << '\n';
    return finish(discovery.errors.empty() ? kExitClean : kExitUsage);
  }

  bool machine_readable = format_name != "concise" && format_name != "full";
  // Build every linter up front: a bad configuration fails before any file is touched (a
  // streamed report's walk built them as it went).
  std::vector<const engine::Linter*> linters;
  if (!streamed) {
    linters.reserve(discovery.files.size());
    for (const engine::DiscoveredFile& file : discovery.files) linters.push_back(&workspace.linter_for(file));
  }
  ContextLines context_lines = machine_readable || options.quiet || options.silent ? ContextLines::NotesOnly
                               : options.verbose                                     ? ContextLines::Verbose
                                                                                     : ContextLines::Normal;
  print_torch_ranges(workspace, discovery.files, paths, context_lines, std::cerr);
  phases.end("settings");
  const engine::Linter& first_linter = workspace.linter_for(paths.front());

  std::vector<engine::FileOutcome>& outcomes = kept_until_exit<std::vector<engine::FileOutcome>>();
  if (streamed) {
    progress_line->start(discovery.files.size());
    outcomes = session->finish(discovery.files, linter_for);
  } else {
    progress_line.emplace(std::cerr, discovery.files.size(), show_progress);
    outcomes = engine::run_session(linters, discovery.files, mode, jobs, cache ? &*cache : nullptr,
                                   options.follow_links, file_done, kept);
  }
  progress_line->finish();
  // One write for the whole run, before any early return below.
  if (cache) cache->save();
  phases.end("checking");
  if (fixed_text_to_stdout) {
    // An excluded or unreadable input comes back as it went in.
    bool fixed = !outcomes.empty() && outcomes.front().changed();
    std::cout << (fixed ? outcomes.front().rewrite->fixed : stdin_bytes) << std::flush;
  }

  if (options.add_noqa) return finish(add_noqa_to_files(outcomes, discovery.files, std::cerr, options.follow_links));

  engine::PathRoots roots = report_roots(options.project_root, paths.front());
  if (!options.write_baseline.empty()) {
    std::vector<std::pair<const SourceFile*, std::vector<Diagnostic>>> findings;
    size_t count = 0;
    for (const engine::FileOutcome& outcome : outcomes) {
      if (outcome.diagnostics.empty()) continue;
      std::vector<Diagnostic> kept;
      for (const Diagnostic& diagnostic : outcome.diagnostics) {
        if (!engine::is_file_problem(diagnostic) && engine::baselinable(diagnostic.code)) kept.push_back(diagnostic);
      }
      count += kept.size();
      findings.emplace_back(outcome.source.get(), std::move(kept));
    }
    try {
      engine::Baseline::write(options.write_baseline, findings, roots);
    } catch (const engine::BaselineError& error) {
      std::cerr << "torchmigrate: error: " << error.what() << '\n';
      return kExitUsage;
    }
    std::cerr << "torchmigrate: wrote " << count << " finding" << (count == 1 ? "" : "s") << " to the baseline "
              << options.write_baseline << " (findings that break on " << engine::builtin_release_names().to
              << " are never baselined)\n";
    // Like --add-noqa, recording the findings is the run's result: no report, and exit 0 unless
    // a file could not be read (its findings are missing from the baseline).
    bool failed = print_file_problems(outcomes, std::cerr);
    return finish(failed && !options.exit_zero ? kExitFindings : kExitClean);
  }
  output::BaselineProgress progress;
  std::vector<std::vector<bool>> new_since;
  if (!options.baseline.empty() && options.baseline_progress) {
    try {
      engine::Baseline baseline = engine::Baseline::load(options.baseline, roots);
      progress = measure_progress(baseline, outcomes, new_since);
      progress.path = options.baseline;
    } catch (const engine::BaselineError& error) {
      std::cerr << "torchmigrate: error: " << error.what() << '\n';
      return kExitUsage;
    }
  } else if (!options.baseline.empty()) {
    try {
      engine::Baseline baseline = engine::Baseline::load(options.baseline, roots);
      size_t hidden = 0, baselinable = 0;
      for (engine::FileOutcome& outcome : outcomes) {
        if (outcome.diagnostics.empty()) continue;
        hidden += baseline.filter(*outcome.source, outcome.diagnostics);
        for (const Diagnostic& diagnostic : outcome.diagnostics) baselinable += engine::baselinable(diagnostic.code);
      }
      if (!machine_readable && !options.quiet && !options.silent && hidden > 0) {
        std::cerr << "torchmigrate: " << hidden << " finding" << (hidden == 1 ? "" : "s") << " hidden by the baseline "
                  << options.baseline << '\n';
      }
      // Findings the baseline could have hidden, and it hid none: written for another root or
      // repository, or entirely stale. Said even beside machine-readable reports.
      if (hidden == 0 && baselinable > 0 && baseline.size() > 0) {
        std::cerr << "torchmigrate: warning: none of the " << baseline.size() << " findings recorded in the baseline "
                  << options.baseline << " matched; its paths are relative to " << roots.root.string()
                  << " (change it with --project-root), or it is out of date (--write-baseline)\n";
      }
    } catch (const engine::BaselineError& error) {
      std::cerr << "torchmigrate: error: " << error.what() << '\n';
      return kExitUsage;
    }
  }

  if (mode == engine::FixMode::Diff) {
    size_t would_fix = 0;
    for (const engine::FileOutcome& outcome : outcomes) {
      if (!outcome.changed()) continue;
      would_fix += outcome.applied.size();
      output::write_unified_diff(outcome.source->path(), outcome.rewrite->original, outcome.rewrite->fixed, out);
    }
    print_file_problems(outcomes, std::cerr);
    std::cerr << (would_fix == 0 ? std::string("No errors would be fixed")
                                 : "Would fix " + std::to_string(would_fix) + " error" + (would_fix == 1 ? "" : "s"))
              << ".\n";
    return finish(would_fix > 0 && !options.exit_zero ? kExitFindings : kExitClean);
  }

  // The fix list is text: it goes with a text report, and to stderr beside a machine-readable one.
  bool text_report = !machine_readable && !options.statistics;
  std::ostream& fix_list_out = text_report ? out : std::cerr;
  if (options.show_fixes) print_fix_list(outcomes, catalog, fix_list_out);

  if (options.fix_only) {
    bool failed = print_file_problems(outcomes, std::cerr);
    size_t fixed = 0;
    for (const engine::FileOutcome& outcome : outcomes) fixed += outcome.applied.size();
    if (!options.show_fixes) {
      fix_list_out << (fixed == 0 ? std::string("No errors fixed")
                                  : "Fixed " + std::to_string(fixed) + " error" + (fixed == 1 ? "" : "s"))
                   << ".\n";
    }
    // Remaining findings do not fail --fix-only; a file that could not be fixed does.
    failed = failed || (options.exit_non_zero_on_fix && fixed > 0);
    return finish(failed && !options.exit_zero ? kExitFindings : kExitClean);
  }

  output::Report& report = kept_until_exit<output::Report>();
  report.catalog = &catalog;
  report.settings = &first_linter.settings();
  report.fix_mode = mode == engine::FixMode::Apply;
  report.root = roots.root.string();
  report.base = roots.base.string();
  size_t remaining = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    engine::FileOutcome& outcome = outcomes[i];
    report.fixed += static_cast<int>(outcome.applied.size());
    remaining += outcome.diagnostics.size();
    if (outcome.diagnostics.empty()) continue;
    const engine::Settings& settings = workspace.linter_for(outcome.source->path()).settings();
    report.files.push_back({outcome.source, std::move(outcome.diagnostics), &settings});
    if (i < new_since.size()) report.files.back().new_since = std::move(new_since[i]);
  }
  report.files_checked = discovery.files.size();
  if (!progress.path.empty()) report.progress = &progress;
  // The formats that show the headline name the projects and their torch ranges.
  if (format_name == "html" || format_name == "markdown" || shard_run) {
    describe_projects(workspace, discovery.files, paths, report);
  }
  report.summary = !options.quiet;
  report.color = use_color(options.color, options.output_file.empty());
  // --silent: the findings are only counted, for the exit code (a report file is still written).
  if (!options.silent || !options.output_file.empty()) {
    if (shard_run) {
      write_shard_json(report, *shard_run, out);
    } else {
      write_report(format_name, options.statistics, report, out);
    }
  }
  // As in Ruff, --exit-zero wins over --exit-non-zero-on-fix.
  bool failed = remaining > 0 || (options.exit_non_zero_on_fix && report.fixed > 0);
  return finish(failed && !options.exit_zero ? kExitFindings : kExitClean);
}

}  // namespace torchmigrate::cli
