// SPDX-License-Identifier: MIT
// Asks git (through libgit2) whether a path is ignored by the .gitignore files, the
// repository's info/exclude and the user's core.excludesFile, exactly as git would.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

struct git_repository;

namespace torchmigrate::engine {

class GitIgnore {
 public:
  GitIgnore();
  ~GitIgnore();
  GitIgnore(const GitIgnore&) = delete;
  GitIgnore& operator=(const GitIgnore&) = delete;

  // A directory walk is about to list `root`. Paths below it are then answered from one libgit2
  // walk of each repository's part below `root` (a diff of the work tree against nothing, which
  // reads each .gitignore once), not from one query per path: a query re-reads the ignore files of
  // every directory above its path, a stat each, and cost 40% of a warm cached run.
  void walking(const std::filesystem::path& root);
  // The walk of `root` is over: its listings go (a language server's files change meanwhile).
  void walked(const std::filesystem::path& root);

  // False outside a git repository. `directory` says whether `path` is one (the walk knows).
  // Not thread-safe: discovery is single-threaded.
  bool is_ignored(const std::filesystem::path& path, bool directory);

  // How many paths were put to libgit2 one at a time (tests see the walk's listing at work).
  [[nodiscard]] size_t paths_asked_alone() const { return asked_alone_; }

 private:
  struct RepositoryDeleter {
    void operator()(git_repository* repository) const;
  };
  using Repository = std::unique_ptr<git_repository, RepositoryDeleter>;

  // What one libgit2 walk of a repository below `scope` found. Paths are relative to the work
  // directory; a directory's ends with '/'.
  struct Listing {
    bool usable = false;                        // false: the walk failed, so every path is asked about alone
    bool all_ignored = false;                   // the scope or a directory above it is ignored
    std::unordered_set<std::string> ignored;    // entries git ignores (an ignored directory is not entered)
    std::unordered_set<std::string> unvisited;  // directories the walk did not enter though git does not ignore them
    // The verdict for `relative`, strictly below the scope; nothing when it lies where the walk did not go.
    [[nodiscard]] std::optional<bool> verdict(const std::string& relative) const;
  };

  git_repository* repository_for(const std::filesystem::path& directory, std::filesystem::path& workdir);
  const Listing* listing_for(git_repository* repository, const std::filesystem::path& workdir,
                             const std::filesystem::path& absolute);
  Listing list(git_repository* repository, const std::string& scope);
  bool ask(git_repository* repository, const std::string& relative);

  // By directory: its repository and that repository's work directory, as strings (memory).
  std::unordered_map<std::string, std::pair<git_repository*, std::string>> by_directory_;
  std::map<std::filesystem::path, Repository> repositories_;  // by work directory
  std::vector<std::string> walk_roots_;                       // absolute and normal
  std::map<std::pair<git_repository*, std::string>, Listing> listings_;  // by repository and scope
  size_t asked_alone_ = 0;
};

}  // namespace torchmigrate::engine
