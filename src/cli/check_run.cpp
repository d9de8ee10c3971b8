// SPDX-License-Identifier: MIT
// One `torchmigrate check` after its options are validated: the engine's run (engine/run/run.hpp)
// over the paths, then what the flags ask of its outcomes: a baseline, --add-noqa, a diff, the
// fix list, or the report, and the exit code.
#include "torchmigrate/cli/check_run.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include "torchmigrate/cli/check_output.hpp"
#include "torchmigrate/cli/kept_until_exit.hpp"
#include "torchmigrate/cli/phase_times.hpp"
#include "torchmigrate/cli/progress.hpp"
#include "torchmigrate/cli/project_context.hpp"
#include "torchmigrate/cli/report_root.hpp"
#include "torchmigrate/cli/shard.hpp"
#include "torchmigrate/cli/shard_result.hpp"
#include "torchmigrate/cli/stdin_input.hpp"
#include "torchmigrate/engine/run/baseline.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"
#include "torchmigrate/engine/run/run.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/unified_diff.hpp"

namespace torchmigrate::cli {
namespace {

std::string plural(size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

class CheckRun {
 public:
  CheckRun(const CheckOptions& options, engine::Workspace& workspace)
      : options_(options), workspace_(workspace), catalog_(workspace.catalog()) {}
  int run();

 private:
  int start();
  engine::RunOptions run_options();
  int walk(engine::Run& run);
  void warn_if_nothing_found(const engine::Discovery& discovery) const;
  int check(engine::Run& run);
  int after_check();
  int write_baseline();
  int apply_baseline();
  int print_diff();
  int fix_only();
  int report();
  int finish(int exit_code);
  [[nodiscard]] int exit_for(bool failed) const { return failed && !options_.exit_zero ? kExitFindings : kExitClean; }

  const CheckOptions& options_;
  engine::Workspace& workspace_;
  const engine::Catalog& catalog_;
  // The named paths are not copied: a pre-commit run names thousands of files.
  std::vector<std::string> implied_;
  const std::vector<std::string>* paths_ = nullptr;
  const engine::ResolvedConfig* first_config_ = nullptr;
  std::string format_name_;
  bool machine_readable_ = false;
  std::ofstream output_file_;
  std::ostream* out_ = &std::cout;
  bool fixed_text_to_stdout_ = false;
  bool from_stdin_ = false;
  std::string stdin_bytes_;
  PhaseTimes phases_;
  unsigned jobs_ = 1;
  engine::FixMode mode_ = engine::FixMode::Report;
  std::optional<ProgressLine> progress_line_;
  std::optional<ShardRun> shard_run_;
  engine::Discovery* discovery_ = nullptr;
  std::vector<engine::FileOutcome>* outcomes_ = nullptr;
  engine::PathRoots roots_;
  output::BaselineProgress progress_;
  std::vector<std::vector<bool>> new_since_;
};

int CheckRun::run() {
  from_stdin_ = reads_stdin(options_);
  if (from_stdin_) {
    implied_ = {stdin_display_path(options_)};
  } else if (options_.paths.empty()) {
    implied_ = {"."};
  }
  paths_ = implied_.empty() ? &options_.paths : &implied_;
  workspace_.set_run_paths(*paths_);
  workspace_.set_compile_database_dir(options_.compile_database_dir);
  if (options_.show_settings) {
    print_settings(workspace_, *paths_, std::cout);
    return kExitClean;
  }
  if (int failed = start(); failed != kExitClean) return failed;
  mode_ = options_.add_noqa                   ? engine::FixMode::Report
          : options_.diff                     ? engine::FixMode::Diff
          : options_.fix || options_.fix_only ? engine::FixMode::Apply
                                              : engine::FixMode::Report;
  // A local: when the walk throws, its destructor wakes and joins the workers of a streamed run.
  engine::Run run(workspace_, run_options(), kept_until_exit<engine::Discovery>());
  discovery_ = &run.discovery();
  if (int stop = walk(run); stop >= 0) return stop;
  return check(run);
}

// The report's format and destination, opened before the run so that an unwritable path fails
// fast instead of after the work.
int CheckRun::start() {
  // The configuration of the first path also chooses the report format when no flag does.
  first_config_ = &workspace_.config_for(paths_->front());
  format_name_ = !options_.output_format.empty() ? options_.output_format
                 : first_config_->output_format  ? *first_config_->output_format
                                                 : std::string("concise");
  machine_readable_ = format_name_ != "concise" && format_name_ != "full";
  if (options_.statistics && statistics_format_refused(format_name_, std::cerr)) return kExitUsage;
  if (!options_.output_file.empty()) {
    std::string error = open_output_file(options_.output_file, output_file_);
    if (!error.empty()) {
      std::cerr << "torchmigrate: error: " << error << '\n';
      return kExitUsage;
    }
  }
  // Fixing standard input prints the fixed text on stdout, so the report goes to stderr.
  fixed_text_to_stdout_ = from_stdin_ && (options_.fix || options_.fix_only) && !options_.diff;
  out_ = !options_.output_file.empty() ? &output_file_ : fixed_text_to_stdout_ ? &std::cerr : &std::cout;
  jobs_ = options_.jobs == 0 ? engine::default_jobs() : options_.jobs;
  return kExitClean;
}

engine::RunOptions CheckRun::run_options() {
  engine::RunOptions run;
  run.mode = mode_;
  run.jobs = jobs_;
  run.follow_links = options_.follow_links;
  run.force_exclude = options_.force_exclude;
  // A plain report checks files while the walk still finds them. Fixes wait for the whole walk,
  // so that a bad configuration anywhere stops the run before a file is written; a shard needs
  // the whole list to take its share; with one job the walking thread is the only worker anyway.
  run.streamed = !from_stdin_ && options_.shard.empty() && !options_.show_files && !options_.add_noqa &&
                 mode_ == engine::FixMode::Report && jobs_ > 1;
  run.adopt_walk = options_.shard.empty();
  // Baselines fingerprint a finding by its enclosing def or class, --add-noqa edits the file and a
  // shard's JSON carries whole texts: only a plain report can do with the lines it shows.
  const bool whole_texts = mode_ != engine::FixMode::Report || options_.add_noqa || !options_.baseline.empty() ||
                           !options_.write_baseline.empty() ||
                           (!options_.shard.empty() && format_name_ == "json" && !options_.statistics);
  run.kept = whole_texts ? engine::TextKept::Whole : engine::TextKept::ShownLines;
  // The cache serves report runs only: fixing always works on fresh findings.
  if (!options_.no_cache && !options_.show_files && mode_ == engine::FixMode::Report) {
    auto& cache = kept_until_exit<std::optional<engine::ResultCache>>();
    cache = engine::open_result_cache(catalog_, options_.cache_dir, *first_config_, std::cerr);
    if (cache) run.cache = &*cache;
  }
  const bool show_progress = !options_.quiet && !options_.silent;
  if (run.streamed) progress_line_.emplace(std::cerr, show_progress);  // drawn once the walk's notes are out
  run.on_file = [this](const engine::FileOutcome& outcome) { progress_line_->file_done(outcome.diagnostics.size()); };
  return run;
}

// Finds the files (checking them meanwhile when streamed) and takes the shard's share; returns
// an exit code when the run ends here, else -1.
int CheckRun::walk(engine::Run& run) {
  if (from_stdin_) {
    stdin_bytes_.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (auto file = stdin_file(options_, workspace_, stdin_bytes_)) run.use_file(std::move(*file));
  } else {
    run.walk(*paths_, first_config_->build_extensions);
  }
  engine::Discovery& discovery = run.discovery();
  for (const std::string& error : discovery.errors) std::cerr << "torchmigrate: error: " << error << '\n';
  for (const std::string& note : discovery.notes) std::cerr << "torchmigrate: note: " << note << '\n';
  if (!discovery.errors.empty() && discovery.files.empty()) return kExitUsage;
  warn_if_nothing_found(discovery);
  // A shard's JSON carries what `merge` needs, which depends on the whole run's file list.
  if (!options_.shard.empty()) {
    Shard shard = parse_shard(options_.shard);
    if (format_name_ == "json" && !options_.statistics) shard_run_ = start_shard_run(options_, shard, discovery.files);
    discovery.files = files_of_shard(discovery.files, shard);
  }
  phases_.end(run.streamed() ? "discovery (checking meanwhile)" : "discovery");
  if (options_.show_files) {
    for (const engine::DiscoveredFile& file : discovery.files) *out_ << file.path << '\n';
    return finish(discovery.errors.empty() ? kExitClean : kExitUsage);
  }
  return -1;
}

// As Ruff: a directory with nothing to check (a typo of the intended one, a tree of other
// languages) passes, but says so. Files named one by one and all excluded (pre-commit with
// --force-exclude) pass silently.
void CheckRun::warn_if_nothing_found(const engine::Discovery& discovery) const {
  if (!discovery.files.empty() || !discovery.errors.empty() || from_stdin_ || options_.silent) return;
  std::error_code error;
  if (std::none_of(paths_->begin(), paths_->end(),
                   [&](const std::string& path) { return std::filesystem::is_directory(path, error); })) {
    return;
  }
  std::cerr << "torchmigrate: warning: No Python, C/C++ or build files found under the given path(s)\n";
}

int CheckRun::check(engine::Run& run) {
  const std::vector<engine::DiscoveredFile>& files = discovery_->files;
  // Every linter before the first file: a bad configuration fails before any file is touched.
  run.resolve_linters();
  const bool lines_only_warnings = machine_readable_ || options_.quiet || options_.silent;
  ContextLines context_lines = lines_only_warnings
                                   ? (options_.verbose ? ContextLines::WarningsAndNotes : ContextLines::Warnings)
                               : options_.verbose ? ContextLines::Verbose
                                                  : ContextLines::Normal;
  print_torch_ranges(workspace_, files, *paths_, context_lines, std::cerr);
  phases_.end("settings");
  if (progress_line_) {
    progress_line_->start(files.size());
  } else {
    progress_line_.emplace(std::cerr, files.size(), !options_.quiet && !options_.silent);
  }
  outcomes_ = &kept_until_exit<std::vector<engine::FileOutcome>>(run.check());
  progress_line_->finish();
  phases_.end("checking");
  if (fixed_text_to_stdout_) {
    // An excluded or unreadable input comes back as it went in.
    bool fixed = !outcomes_->empty() && outcomes_->front().changed();
    std::cout << (fixed ? outcomes_->front().rewrite->fixed : stdin_bytes_) << std::flush;
  }
  return after_check();
}

int CheckRun::after_check() {
  if (options_.add_noqa) {
    return finish(add_noqa_to_files(*outcomes_, discovery_->files, catalog_, std::cerr, options_.follow_links));
  }
  roots_ = report_roots(options_.project_root, paths_->front());
  if (!options_.write_baseline.empty()) return write_baseline();
  if (!options_.baseline.empty()) {
    if (int failed = apply_baseline(); failed != kExitClean) return failed;
  }
  if (mode_ == engine::FixMode::Diff) return print_diff();
  // The fix list is text: it goes with a text report, and to stderr beside a machine-readable one.
  std::ostream& fix_list_out = !machine_readable_ && !options_.statistics ? *out_ : std::cerr;
  if (options_.show_fixes) print_fix_list(*outcomes_, catalog_, fix_list_out);
  if (options_.fix_only) return fix_only();
  return report();
}

int CheckRun::write_baseline() {
  std::vector<std::pair<const SourceFile*, std::vector<Diagnostic>>> findings;
  size_t count = 0;
  for (const engine::FileOutcome& outcome : *outcomes_) {
    if (outcome.diagnostics.empty()) continue;
    std::vector<Diagnostic> kept;
    for (const Diagnostic& diagnostic : outcome.diagnostics) {
      if (!engine::is_file_problem(diagnostic) && engine::baselinable(diagnostic.code, catalog_))
        kept.push_back(diagnostic);
    }
    count += kept.size();
    findings.emplace_back(outcome.source.get(), std::move(kept));
  }
  try {
    engine::Baseline::write(options_.write_baseline, findings, roots_, catalog_);
  } catch (const engine::BaselineError& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  std::cerr << "torchmigrate: wrote " << plural(count, "finding") << " to the baseline " << options_.write_baseline
            << " (findings that break on " << catalog_.release().to.str() << " are never baselined)\n";
  // Like --add-noqa, recording the findings is the run's result: no report, and exit 0 unless
  // a file could not be read (its findings are missing from the baseline).
  return finish(exit_for(print_file_problems(*outcomes_, std::cerr)));
}

int CheckRun::apply_baseline() {
  try {
    engine::Baseline baseline = engine::Baseline::load(options_.baseline, roots_, catalog_);
    if (options_.baseline_progress) {
      progress_ = measure_progress(baseline, *outcomes_, new_since_, catalog_);
      progress_.path = options_.baseline;
      return kExitClean;
    }
    size_t hidden = 0, baselinable = 0;
    for (engine::FileOutcome& outcome : *outcomes_) {
      if (outcome.diagnostics.empty()) continue;
      hidden += baseline.filter(*outcome.source, outcome.diagnostics);
      for (const Diagnostic& diagnostic : outcome.diagnostics) {
        baselinable += engine::baselinable(diagnostic.code, catalog_);
      }
    }
    if (!machine_readable_ && !options_.quiet && !options_.silent && hidden > 0) {
      std::cerr << "torchmigrate: " << plural(hidden, "finding") << " hidden by the baseline " << options_.baseline
                << '\n';
    }
    // Findings the baseline could have hidden, and it hid none: written for another root or
    // repository, or entirely stale. Said even beside machine-readable reports.
    if (hidden == 0 && baselinable > 0 && baseline.size() > 0) {
      std::cerr << "torchmigrate: warning: none of the " << baseline.size() << " findings recorded in the baseline "
                << options_.baseline << " matched; its paths are relative to " << roots_.root.string()
                << " (change it with --project-root), or it is out of date (--write-baseline)\n";
    }
  } catch (const engine::BaselineError& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  return kExitClean;
}

int CheckRun::print_diff() {
  size_t would_fix = 0;
  for (const engine::FileOutcome& outcome : *outcomes_) {
    if (!outcome.changed()) continue;
    would_fix += outcome.applied.size();
    output::write_unified_diff(outcome.source->path(), outcome.rewrite->original, outcome.rewrite->fixed, *out_);
  }
  print_file_problems(*outcomes_, std::cerr);
  // "findings", as the report's summary counts them: Ruff's "errors" would count warnings too.
  std::cerr << (would_fix == 0 ? std::string("No findings would be fixed")
                               : "Would fix " + plural(would_fix, "finding"))
            << ".\n";
  return finish(exit_for(would_fix > 0));
}

int CheckRun::fix_only() {
  bool failed = print_file_problems(*outcomes_, std::cerr);
  size_t fixed = 0;
  for (const engine::FileOutcome& outcome : *outcomes_) fixed += outcome.applied.size();
  if (!options_.show_fixes) {
    std::ostream& fix_list_out = !machine_readable_ && !options_.statistics ? *out_ : std::cerr;
    fix_list_out << (fixed == 0 ? std::string("No findings fixed") : "Fixed " + plural(fixed, "finding")) << ".\n";
  }
  // Remaining findings do not fail --fix-only; a file that could not be fixed does.
  return finish(exit_for(failed || (options_.exit_non_zero_on_fix && fixed > 0)));
}

int CheckRun::report() {
  output::Report& report = kept_until_exit<output::Report>();
  report.catalog = &catalog_;
  report.settings = &workspace_.linter_for(paths_->front()).settings();
  report.fix_mode = mode_ == engine::FixMode::Apply;
  report.root = roots_.root.string();
  report.base = roots_.base.string();
  size_t remaining = 0;
  for (size_t i = 0; i < outcomes_->size(); ++i) {
    engine::FileOutcome& outcome = (*outcomes_)[i];
    report.fixed += static_cast<int>(outcome.applied.size());
    remaining += outcome.diagnostics.size();
    if (outcome.diagnostics.empty()) continue;
    const engine::Settings& settings = workspace_.linter_for(outcome.source->path()).settings();
    report.files.push_back({outcome.source, std::move(outcome.diagnostics), &settings});
    if (i < new_since_.size()) report.files.back().new_since = std::move(new_since_[i]);
  }
  report.files_checked = discovery_->files.size();
  if (!progress_.path.empty()) report.progress = &progress_;
  // The formats that show the headline name the projects and their torch ranges.
  if (format_name_ == "html" || format_name_ == "markdown" || shard_run_) {
    describe_projects(workspace_, discovery_->files, *paths_, report);
  }
  report.summary = !options_.quiet;
  report.color = use_color(options_.color, options_.output_file.empty());
  // --silent: the findings are only counted, for the exit code (a report file is still written).
  if (!options_.silent || !options_.output_file.empty()) {
    if (shard_run_) {
      write_shard_json(report, *shard_run_, *out_);
    } else {
      write_report(format_name_, options_.statistics, report, *out_);
    }
  }
  // As in Ruff, --exit-zero wins over --exit-non-zero-on-fix.
  return finish(exit_for(remaining > 0 || (options_.exit_non_zero_on_fix && report.fixed > 0)));
}

int CheckRun::finish(int exit_code) {
  out_->flush();
  // A path that does not exist fails the run even when the others were checked: a typo in CI
  // must not pass.
  if (discovery_ != nullptr && !discovery_->missing.empty()) exit_code = kExitUsage;
  if (options_.verbose) {
    phases_.end("report");
    phases_.print(std::cerr, discovery_ ? discovery_->files.size() : 0, jobs_);
  }
  return close_output_file(options_.output_file, output_file_, exit_code);
}

}  // namespace

int run_check_in(const CheckOptions& options, engine::Workspace& workspace) {
  return CheckRun(options, workspace).run();
}

}  // namespace torchmigrate::cli
