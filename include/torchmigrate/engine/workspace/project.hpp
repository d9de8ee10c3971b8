// SPDX-License-Identifier: MIT
// A project: the nearest directory at or above a file that holds a torch pin, a package's
// definition (pyproject.toml with [project]/[tool.poetry], setup.cfg, a setup.py that calls
// setup()) or a torchmigrate configuration, never above the repository root; outside any
// repository, the run's common directory. A project without torch pins inherits the range of
// the project around it. Everything a verdict may depend on besides the file itself is resolved here,
// once per project: the supported torch range and the facts gathered from the project's tree.
// A file's result therefore never depends on which other files are in the run.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchmigrate/engine/run/helping_once.hpp"
#include "torchmigrate/engine/workspace/directory_listings.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/project_facts.hpp"
#include "torchmigrate/engine/workspace/torch_range.hpp"

namespace torchmigrate::engine {

class Project {
 public:
  // Lists the project's own files (nested projects excluded); called at most once, when a check
  // first asks for a fact.
  using FileLister = std::function<std::vector<DiscoveredFile>()>;

  Project(std::filesystem::path root, TorchRange torch_range, FileLister files, buildfiles::ExtraExtensions extensions);
  // A project whose facts are given (tests, unsaved editor buffers).
  static std::shared_ptr<const Project> with_facts(ProjectFacts facts, std::filesystem::path root = {});

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  // Detected from the project's own pins; the configuration may override it (Settings::min_torch).
  [[nodiscard]] const TorchRange& torch_range() const { return torch_range_; }
  // Gathered from the project's tree on first use, then shared by every file of the project.
  [[nodiscard]] const ProjectFacts& facts() const;
  // Whether facts() has gathered them (asking now would not wait).
  [[nodiscard]] bool facts_gathered() const { return gathered_.done(); }
  // Whether a thread is gathering them now (asking would help it, or wait for it).
  [[nodiscard]] bool facts_being_gathered() const { return gathered_.running(); }
  // Every fact's key (add_fact_keys), as the result cache's keys hold them: from `memo` while the
  // inputs of the gathering it recalls are unchanged (a stat per file, no read), else gathered
  // and handed to `memo`. Computed once; `memo` may be null.
  [[nodiscard]] const nlohmann::json& fact_keys(const FactMemo* memo) const;

 private:
  std::filesystem::path root_;
  TorchRange torch_range_;
  FileLister files_;
  buildfiles::ExtraExtensions extensions_;
  mutable HelpingOnce gathered_;  // the workers that wait for the facts gather them
  mutable ProjectFacts facts_;
  mutable FactInputs inputs_;  // what gathering facts_ looked at besides the listed files
  mutable std::once_flag listed_;
  mutable std::vector<DiscoveredFile> listed_files_;
  mutable std::once_flag keyed_;
  mutable std::unique_ptr<nlohmann::json> keys_;

  const std::vector<DiscoveredFile>& listed_files() const;
};

// The directory of the project that holds `path` (a file or directory): the nearest one at or
// above it that is a project's root (see above), stopping at the repository root (a `.git`
// entry); with none, the path's own directory (a run gives ProjectIndex its common directory).
std::filesystem::path project_root_of(const std::filesystem::path& path);

// Finds and caches projects by directory. Thread-safe.
class ProjectIndex {
 public:
  // Makes the file lister of a project rooted at a directory (the caller knows the filters).
  using ListerFactory = std::function<Project::FileLister(const std::filesystem::path& root)>;

  // `listings`, when given, is shared with the other components that look into directories.
  explicit ProjectIndex(ListerFactory lister, buildfiles::ExtraExtensions extensions = {},
                        DirectoryListings* listings = nullptr);

  std::shared_ptr<const Project> project_of(const std::filesystem::path& path);
  // The same for a caller that has `path`'s symlink_status already.
  std::shared_ptr<const Project> project_of(const std::filesystem::path& path,
                                            const std::filesystem::file_status& link);
  // The project root for `path`, cached per directory.
  std::filesystem::path root_of(const std::filesystem::path& path);
  std::filesystem::path root_of(const std::filesystem::path& path, const std::filesystem::file_status& link);
  // Every project met so far, by root.
  [[nodiscard]] std::vector<std::shared_ptr<const Project>> projects() const;
  // The directory all paths of the run lie in: the project of files outside any other project
  // and repository, and where inheritance stops.
  void set_run_root(const std::filesystem::path& directory);

 private:
  // The nearest directory at or above `directory` that is a project root or the repository top.
  std::optional<std::filesystem::path> nearest_edge(const std::filesystem::path& directory);
  std::shared_ptr<const Project> project_at(const std::filesystem::path& root);
  TorchRange range_of(const std::filesystem::path& root);
  bool inside_repository(const std::filesystem::path& directory);
  std::filesystem::path fallback_root(const std::filesystem::path& start) const;
  // Where the search for `path`'s project starts: its real directory (itself if a directory).
  std::filesystem::path start_of(const std::filesystem::path& path, const std::filesystem::file_status& link);
  // The canonical path of an absolute directory name; none when it cannot be resolved.
  std::optional<std::filesystem::path> real_directory(const std::filesystem::path& directory);

  ListerFactory lister_;
  buildfiles::ExtraExtensions extensions_;
  DirectoryListings own_listings_;
  DirectoryListings& listings_;
  mutable std::recursive_mutex mutex_;
  // Per-directory memos keep paths as strings: a path object also keeps its components.
  std::unordered_map<std::string, std::optional<std::string>> edges_;
  // By absolute directory name, as given.
  std::unordered_map<std::string, std::optional<std::string>> real_directories_;
  std::map<std::filesystem::path, std::shared_ptr<const Project>> projects_;
  std::optional<std::filesystem::path> run_root_;
  // A regular file's root by its directory as written: most files need no path arithmetic.
  std::unordered_map<std::string, std::string> file_directory_roots_;
};

}  // namespace torchmigrate::engine
