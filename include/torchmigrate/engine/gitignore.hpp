// SPDX-License-Identifier: MIT
// Asks git (through libgit2) whether a path is ignored by the .gitignore files, the
// repository's info/exclude and the user's core.excludesFile, exactly as git would.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

struct git_repository;

namespace torchmigrate::engine {

class GitIgnore {
 public:
  GitIgnore();
  ~GitIgnore();
  GitIgnore(const GitIgnore&) = delete;
  GitIgnore& operator=(const GitIgnore&) = delete;

  // False outside a git repository. `directory` says whether `path` is one (the walk knows).
  // Not thread-safe: discovery is single-threaded.
  bool is_ignored(const std::filesystem::path& path, bool directory);

 private:
  struct RepositoryDeleter {
    void operator()(git_repository* repository) const;
  };
  using Repository = std::unique_ptr<git_repository, RepositoryDeleter>;
  git_repository* repository_for(const std::filesystem::path& directory, std::filesystem::path& workdir);

  // By directory: its repository and that repository's work directory, as strings (memory).
  std::unordered_map<std::string, std::pair<git_repository*, std::string>> by_directory_;
  std::map<std::filesystem::path, Repository> repositories_;  // by work directory
};

}  // namespace torchmigrate::engine
