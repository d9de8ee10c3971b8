// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/gitignore.hpp"

#include <git2.h>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

// libgit2 is started on the first question only: starting it reads the system's certificate
// bundle, a cost a run that never walks a directory should not pay.
GitIgnore::GitIgnore() = default;
GitIgnore::~GitIgnore() {
  repositories_.clear();
  if (started_) git_libgit2_shutdown();
}

void GitIgnore::RepositoryDeleter::operator()(git_repository* repository) const { git_repository_free(repository); }

git_repository* GitIgnore::repository_for(const fs::path& directory, fs::path& workdir) {
  if (!started_) {
    git_libgit2_init();
    started_ = true;
  }
  auto cached = by_directory_.find(directory);
  if (cached != by_directory_.end()) {
    workdir = cached->second.second;
    return cached->second.first;
  }
  git_repository* found = nullptr;
  git_repository* opened = nullptr;
  if (git_repository_open_ext(&opened, directory.c_str(), 0, nullptr) == 0 && !git_repository_is_bare(opened)) {
    workdir = fs::path(git_repository_workdir(opened)).lexically_normal();
    auto it = repositories_.find(workdir);
    if (it == repositories_.end()) {
      it = repositories_.emplace(workdir, Repository(opened)).first;
    } else {
      git_repository_free(opened);
    }
    found = it->second.get();
  } else if (opened != nullptr) {
    git_repository_free(opened);
  }
  by_directory_.emplace(directory, std::make_pair(found, workdir));
  return found;
}

bool GitIgnore::is_ignored(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error).lexically_normal();
  bool directory = fs::is_directory(absolute, error);
  fs::path workdir;
  git_repository* repository = repository_for(directory ? absolute : absolute.parent_path(), workdir);
  if (repository == nullptr) return false;
  std::string relative = absolute.lexically_relative(workdir).generic_string();
  if (relative.empty() || relative == "." || relative.starts_with("..")) return false;
  if (directory) relative += '/';
  int ignored = 0;
  if (git_ignore_path_is_ignored(&ignored, repository, relative.c_str()) != 0) return false;
  return ignored == 1;
}

}  // namespace torchmigrate::engine
