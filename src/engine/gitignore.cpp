// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/gitignore.hpp"

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

bool GitIgnore::is_ignored(const fs::path& path, bool directory) {
  fs::path absolute = absolute_path(path).lexically_normal();
  fs::path workdir;
  git_repository* repository = repository_for(directory ? absolute : absolute.parent_path(), workdir);
  if (repository == nullptr) return false;
  std::string relative = absolute.lexically_relative(workdir).generic_string();
  if (relative.empty() || relative == "." || relative.starts_with("..")) return false;
  if (directory) relative += '/';
  int ignored = 0;
  if (libgit2().git_ignore_path_is_ignored(&ignored, repository, relative.c_str()) != 0) return false;
  return ignored == 1;
}

}  // namespace torchmigrate::engine
