// SPDX-License-Identifier: MIT
// One run over the files of some paths, the same for check, fix, report and shards: walk the
// paths (checking files meanwhile when the run only reports), resolve each file's linter through
// the workspace (a bad configuration fails before any file is written), lint or fix every file in
// parallel (session.hpp), save the result cache, and hand back one outcome per file in the walk's
// order. What a command does with the outcomes (reports, baselines, diffs) stays with it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "torchmigrate/engine/run/session.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"

namespace torchmigrate::engine {

class ResultCache;

struct RunOptions {
  FixMode mode = FixMode::Report;
  unsigned jobs = 1;
  bool follow_links = false;   // write fixes through links that leave the project
  bool force_exclude = false;  // excludes apply to files named on the command line too
  // Check files while the walk still finds them: a report run over the whole walk only.
  bool streamed = false;
  // Projects list their files from this walk instead of walking again; not for a shard, which
  // keeps only its share of the walk.
  bool adopt_walk = true;
  TextKept kept = TextKept::Whole;
  ResultCache* cache = nullptr;  // report runs only; saved once the files are checked
  OnFileDone on_file;            // called from the worker threads as each file is done
};

class Run {
 public:
  // `discovery` receives the files: the caller owns it, and may keep it past the run.
  Run(Workspace& workspace, RunOptions options, Discovery& discovery);
  // Forgets the walk (waking workers that wait for a project's file list), then stops and joins
  // the workers of a streamed run that failed mid-walk.
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Walks `paths` with the workspace's filter. Throws ConfigError for a bad configuration met
  // on the way (a streamed run resolves each file's linter as the walk finds it).
  Discovery& walk(const std::vector<std::string>& paths, const buildfiles::ExtraExtensions& build_extensions);
  // Checks `file` alone instead of walking (standard input).
  void use_file(DiscoveredFile file);
  // The files found; a command may narrow them (a shard's share) before check().
  [[nodiscard]] Discovery& discovery() { return discovery_; }
  [[nodiscard]] bool streamed() const { return options_.streamed; }
  // Builds the linter of every file, so a bad configuration fails before any file is touched
  // (a streamed run built them during the walk).
  void resolve_linters();
  // Lints or fixes every file of discovery().files; one outcome each, in that order.
  std::vector<FileOutcome> check();

 private:
  void forget_walk();

  Workspace& workspace_;
  RunOptions options_;
  Discovery& discovery_;
  std::vector<const Linter*> linters_;
  bool walk_adopted_ = false;
  std::unique_ptr<StreamedSession> streamed_;
};

}  // namespace torchmigrate::engine
