// SPDX-License-Identifier: MIT
// Whether git ignores a path: the .gitignore files from the work tree's top down to the path's
// directory, the repository's info/exclude and the user's core.excludesFile, with git's
// precedence (a deeper file over a shallower one, the last matching line of a file winning) and a
// path in an ignored directory ignored too. Each directory's .gitignore is read once.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchmigrate/engine/workspace/directory_listings.hpp"
#include "torchmigrate/engine/workspace/ignore_patterns.hpp"

namespace torchmigrate::engine {

class GitIgnore {
 public:
  // `listings`, when given, is shared with the other components that look into directories.
  explicit GitIgnore(DirectoryListings* listings = nullptr);
  ~GitIgnore();
  GitIgnore(const GitIgnore&) = delete;
  GitIgnore& operator=(const GitIgnore&) = delete;

  // False outside a git repository. `directory` says whether `path` is one (the walk knows).
  // Not thread-safe: discovery is single-threaded.
  bool is_ignored(const std::filesystem::path& path, bool directory);

 private:
  DirectoryListings own_listings_;
  DirectoryListings& listings_;
  struct Repository {
    std::string workdir;  // absolute, normal, no trailing separator
    IgnorePatterns info_exclude;
    IgnorePatterns excludes_file;
    bool ignore_case = false;
  };
  struct Directory {
    const Repository* repository = nullptr;  // none: outside every work tree
    const Directory* parent = nullptr;       // the directory above, in the same work tree
    std::string relative;                    // to the work tree's top ("" for the top)
    IgnorePatterns gitignore;
    bool ignored = false;
  };

  const Directory& directory(const std::string& absolute);
  [[nodiscard]] static bool matches(const Directory& directory, const std::string& relative, bool is_directory);

  std::unordered_map<std::string, Directory> directories_;  // by absolute path; values never move
  // The directory of the last file asked about, as the caller spelled it, and its entry.
  std::string last_given_parent_;
  const Directory* last_parent_ = nullptr;
  std::string relative_;  // reused for each file's path in its work tree
  std::vector<std::unique_ptr<Repository>> repositories_;
};

}  // namespace torchmigrate::engine
