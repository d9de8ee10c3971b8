// SPDX-License-Identifier: MIT
// The engine's one facade, shared by the CLI and the language server: for every file, which
// configuration applies, which project it belongs to (torch range, project facts), which
// linter checks it (selection, per-file ignores, policy), and which files the walk skips
// (excludes, .gitignore). A file's settings depend only on where it is, never on which other
// files are in the run or where the run was started.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/workspace/config.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/gitignore.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

namespace torchmigrate::engine {

// Where a file's settings came from, for `--show-settings` and the range line.
struct FileContext {
  const ResolvedConfig* config = nullptr;
  std::shared_ptr<const Project> project;
  const Linter* linter = nullptr;
  // The project's range as this file is checked: its pins, or a configured min-torch. Shared by
  // every file of the project: a range holds the list of files it was read from.
  std::shared_ptr<const TorchRange> range;
  std::string target_source;  // "--target-version", the config file, or "" (the default)
};

class Workspace {
 public:
  Workspace(const Catalog& catalog, const CheckRegistry& registry, CliOverrides overrides,
            std::optional<std::filesystem::path> explicit_config, bool isolated);

  // The paths the run was given: their common directory is the project of files outside any
  // repository and project (project.hpp).
  void set_run_paths(const std::vector<std::string>& paths);
  // `-p DIR` of the command line: the compile database for every C/C++/CUDA file.
  void set_compile_database_dir(std::string directory);
  // Throws ConfigError for a bad configuration file.
  const ResolvedConfig& config_for(const std::filesystem::path& path);
  // The linter for one file: its configuration, its project and its per-file ignores. Thread-safe.
  const Linter& linter_for(const std::filesystem::path& path);
  const Linter& linter_for(const DiscoveredFile& file) { return *context_for(file.path, file.plain).linter; }
  // Everything that decided the file's settings. `plain`: the caller knows the path to be a
  // regular file and no link (DiscoveredFile::plain), which saves an lstat.
  FileContext context_for(const std::filesystem::path& path, bool plain = false);
  std::shared_ptr<const Project> project_of(const std::filesystem::path& path) { return projects_.project_of(path); }
  // A walked file, known to be a regular file when `plain`: no lstat.
  std::shared_ptr<const Project> project_of(const DiscoveredFile& file);
  // The walk's filter: configured excludes, .gitignore (unless disabled), configured extensions.
  DiscoveryFilter filter(bool force_exclude);
  // The run's own walk of `paths` (with filter()): a project whose root lies in one of the
  // walked directories takes its file list, which its facts are gathered from, from this walk
  // instead of walking its tree a second time. Used only when every path is a directory: a
  // file named on the command line is listed even when excluded, which a project's walk skips.
  // Not copied (a copy of a large tree's paths costs more memory than the rest of the run's
  // bookkeeping): `files` must stay unchanged until forget_walk().
  void adopt_walk(const std::vector<std::string>& paths, const std::vector<DiscoveredFile>& files);
  void forget_walk();
  // The run's walk has begun and files are checked while it goes on: a project's file list
  // waits for adopt_walk() instead of walking again; after forget_walk() without it (the walk
  // failed, and so does the run) the list is empty.
  void begin_walk();
  [[nodiscard]] const Catalog& catalog() const { return catalog_; }

 private:
  std::vector<DiscoveredFile> project_files(const std::filesystem::path& root);
  void end_walk();  // wakes project_files() callers waiting for the walk
  // config_for(path) for a path known to exist and to be a directory or not (no stat needed).
  const ResolvedConfig& config_of_existing(const std::filesystem::path& path, bool directory);

  const Catalog& catalog_;
  const CheckRegistry& registry_;
  DirectoryListings listings_;  // shared by the resolver, the project index and the .gitignore reader
  ConfigResolver resolver_;
  ProjectIndex projects_;
  std::string compile_database_dir_;
  std::recursive_mutex mutex_;
  GitIgnore gitignore_;
  std::map<std::string, std::unique_ptr<Linter>> linters_;  // by config path + project + ignored codes
  std::map<std::string, std::shared_ptr<const TorchRange>> ranges_;  // by config path + project
  // config_for of a directory, by its path's string (a path object per entry costs its components)
  std::unordered_map<std::string, const ResolvedConfig*> directory_configs_;
  std::string last_config_directory_;  // the last directory config_of_existing answered for
  const ResolvedConfig* last_config_ = nullptr;
  // context_for of the plain files of a directory without per-file ignores, which all share it
  std::unordered_map<std::string, FileContext> directory_contexts_;
  std::mutex walk_mutex_;  // guards walk_pending_ and walk_failed_; not mutex_, which the walk's filters take
  std::condition_variable walk_done_;
  bool walk_pending_ = false;
  bool walk_failed_ = false;                               // forgotten before it was adopted
  std::vector<std::filesystem::path> walked_directories_;  // canonical, as project roots are; see adopt_walk
  const std::vector<DiscoveredFile>* walked_files_ = nullptr;
};

}  // namespace torchmigrate::engine
