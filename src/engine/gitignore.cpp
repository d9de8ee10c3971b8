// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/gitignore.hpp"

#include <algorithm>

#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/libgit2_api.hpp"
#include "torchmigrate/engine/working_directory.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

// libgit2 is loaded and started on the first question only (libgit2_api.hpp).
GitIgnore::GitIgnore() = default;
GitIgnore::~GitIgnore() = default;

void GitIgnore::RepositoryDeleter::operator()(git_repository* repository) const {
  libgit2().git_repository_free(repository);
}

namespace {

// Whether `directory` or a directory above it has a `.git` (a directory, or a file for a worktree
// or submodule): without one, libgit2's discovery finds no work tree either.
bool has_git_entry_at_or_above(fs::path directory) {
  std::error_code error;
  for (;; directory = directory.parent_path()) {
    if (fs::symlink_status(directory / ".git", error).type() != fs::file_type::not_found) return true;
    if (!directory.has_parent_path() || directory.parent_path() == directory) return false;
  }
}

// Absolute, normal and without a trailing separator.
fs::path normal_absolute(const fs::path& path) {
  fs::path absolute = absolute_path(path).lexically_normal();
  if (!absolute.has_filename() && absolute.has_relative_path()) absolute = absolute.parent_path();
  return absolute;
}

}  // namespace

git_repository* GitIgnore::repository_for(const fs::path& directory, fs::path& workdir) {
  auto cached = by_directory_.find(directory.native());
  if (cached != by_directory_.end()) {
    workdir = cached->second.second;
    return cached->second.first;
  }
  // A directory without a `.git` of its own lies in its parent's repository (or, like it, in
  // none), which is what libgit2's discovery walk would find again: one lstat instead of that
  // walk per directory. (A bare repository found by that walk counts as none here as well.)
  std::error_code error;
  if (auto parent = by_directory_.find(directory.parent_path().native());
      parent != by_directory_.end() &&
      fs::symlink_status(directory / ".git", error).type() == fs::file_type::not_found) {
    workdir = parent->second.second;
    by_directory_.emplace(directory.native(), parent->second);
    return parent->second.first;
  }
  // Outside any repository libgit2 is not even loaded (a tenth of a warm run's time).
  if (!has_git_entry_at_or_above(directory)) {
    by_directory_.emplace(directory.native(), std::make_pair(nullptr, std::string()));
    return nullptr;
  }
  const Libgit2Api& git = libgit2();
  git_repository* found = nullptr;
  git_repository* opened = nullptr;
  if (git.git_repository_open_ext(&opened, directory.c_str(), 0, nullptr) == 0 && !git.git_repository_is_bare(opened)) {
    workdir = fs::path(git.git_repository_workdir(opened)).lexically_normal();
    auto it = repositories_.find(workdir);
    if (it == repositories_.end()) {
      it = repositories_.emplace(workdir, Repository(opened)).first;
    } else {
      git.git_repository_free(opened);
    }
    found = it->second.get();
  } else if (opened != nullptr) {
    git.git_repository_free(opened);
  }
  by_directory_.emplace(directory.native(), std::make_pair(found, workdir.native()));
  return found;
}

void GitIgnore::walking(const fs::path& root) { walk_roots_.push_back(normal_absolute(root).native()); }

void GitIgnore::walked(const fs::path& root) {
  auto it = std::find(walk_roots_.begin(), walk_roots_.end(), normal_absolute(root).native());
  if (it != walk_roots_.end()) walk_roots_.erase(it);
  if (walk_roots_.empty()) listings_.clear();
}

bool GitIgnore::ask(git_repository* repository, const std::string& relative) {
  ++asked_alone_;
  int ignored = 0;
  if (libgit2().git_ignore_path_is_ignored(&ignored, repository, relative.c_str()) != 0) return false;
  return ignored == 1;
}

GitIgnore::Listing GitIgnore::list(git_repository* repository, const std::string& scope) {
  Listing listing;
  listing.usable = true;
  // The walk's verdicts start below the scope: an ignored directory at or above it ignores all.
  if (!scope.empty()) {
    for (size_t slash = scope.find('/');; slash = scope.find('/', slash + 1)) {
      if (ask(repository, slash == std::string::npos ? scope + '/' : scope.substr(0, slash + 1))) {
        listing.all_ignored = true;
        return listing;
      }
      if (slash == std::string::npos) break;
    }
  }
  const Libgit2Api& git = libgit2();
  // Directories discovery never enters are not walked by libgit2 either (a virtual environment
  // nobody ignored): they are added as rules of this repository object for the one walk, and a
  // directory reported ignored is asked about again once they are gone.
  std::string pruned;
  for (std::string_view name : default_excluded_names()) (pruned += name) += "/\n";
  git.git_ignore_add_rule(repository, pruned.c_str());
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  options.flags = GIT_DIFF_INCLUDE_IGNORED | GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                  GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  options.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
  char* pathspec = const_cast<char*>(scope.c_str());
  if (!scope.empty()) options.pathspec = {&pathspec, 1};
  git_diff* diff = nullptr;
  // Against no tree every file is untracked or ignored: nothing is compared or hashed.
  bool walked = git.git_diff_tree_to_workdir(&diff, repository, nullptr, &options) == 0;
  git.git_ignore_clear_internal_rules(repository);
  if (!walked) {
    listing.usable = false;
    return listing;
  }
  for (size_t i = 0, count = git.git_diff_num_deltas(diff); i < count; ++i) {
    const git_diff_delta* delta = git.git_diff_get_delta(diff, i);
    std::string path = delta->new_file.path;
    bool directory =
        path.ends_with('/') || delta->new_file.mode == GIT_FILEMODE_TREE || delta->new_file.mode == GIT_FILEMODE_COMMIT;
    if (directory && !path.ends_with('/')) path += '/';
    if (delta->status == GIT_DELTA_IGNORED) {
      (!directory || ask(repository, path) ? listing.ignored : listing.unvisited).insert(std::move(path));
    } else if (directory) {
      listing.unvisited.insert(std::move(path));  // another repository, not entered
    }
  }
  git.git_diff_free(diff);
  return listing;
}

std::optional<bool> GitIgnore::Listing::verdict(const std::string& relative) const {
  if (!usable) return std::nullopt;
  if (all_ignored) return true;
  if (ignored.empty() && unvisited.empty()) return false;
  for (size_t slash = relative.find('/'); slash != std::string::npos && slash + 1 < relative.size();
       slash = relative.find('/', slash + 1)) {
    std::string directory = relative.substr(0, slash + 1);
    if (unvisited.contains(directory)) return std::nullopt;
    if (ignored.contains(directory)) return true;
  }
  return ignored.contains(relative);
}

const GitIgnore::Listing* GitIgnore::listing_for(git_repository* repository, const fs::path& workdir,
                                                 const fs::path& absolute) {
  // The outermost walk root strictly above the path.
  const std::string& path = absolute.native();
  const std::string* outermost = nullptr;
  for (const std::string& root : walk_roots_) {
    bool below =
        path.size() > root.size() && path.starts_with(root) && (root.ends_with('/') || path[root.size()] == '/');
    if (below && (outermost == nullptr || root.size() < outermost->size())) outermost = &root;
  }
  if (outermost == nullptr) return nullptr;
  // A repository inside the walk root is listed whole.
  std::string scope = fs::path(*outermost).lexically_relative(workdir).generic_string();
  if (scope == "." || scope.starts_with("..")) scope.clear();
  auto key = std::make_pair(repository, scope);
  auto it = listings_.find(key);
  if (it == listings_.end()) it = listings_.emplace(key, list(repository, scope)).first;
  return &it->second;
}

bool GitIgnore::is_ignored(const fs::path& path, bool directory) {
  fs::path absolute = normal_absolute(path);
  fs::path workdir;
  git_repository* repository = repository_for(directory ? absolute : absolute.parent_path(), workdir);
  if (repository == nullptr) return false;
  std::string relative = absolute.lexically_relative(workdir).generic_string();
  if (relative.empty() || relative == "." || relative.starts_with("..")) return false;
  if (directory) relative += '/';
  if (const Listing* listing = listing_for(repository, workdir, absolute)) {
    if (std::optional<bool> verdict = listing->verdict(relative)) return *verdict;
  }
  return ask(repository, relative);
}

}  // namespace torchmigrate::engine
