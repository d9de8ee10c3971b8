// SPDX-License-Identifier: MIT
// Report roots: CI systems show paths relative to the repository, whichever directory the
// check was started from.
#include "torchmigrate/cli/report_root.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace torchmigrate::cli {
namespace {

namespace fs = std::filesystem;

bool lies_under(const fs::path& path, const fs::path& directory) {
  fs::path relative = path.lexically_relative(directory);
  return !relative.empty() && *relative.begin() != "..";
}

// The nearest directory at or above `start` holding `.git` (a directory, or a file in worktrees
// and submodules).
fs::path git_top_level(fs::path start) {
  std::error_code error;
  if (!fs::is_directory(start, error)) start = start.parent_path();
  for (fs::path directory = start; !directory.empty(); directory = directory.parent_path()) {
    if (fs::exists(directory / ".git", error)) return directory;
    if (directory == directory.root_path()) break;
  }
  return {};
}

}  // namespace

engine::PathRoots report_roots(const std::string& project_root_option, const std::string& first_path) {
  std::error_code error;
  fs::path cwd = fs::current_path(error);
  engine::PathRoots roots{cwd, cwd};
  if (!project_root_option.empty()) {
    roots.root = fs::absolute(project_root_option, error).lexically_normal();
    return roots;
  }
  fs::path target = fs::absolute(first_path, error).lexically_normal();
  for (const char* variable : {"GITHUB_WORKSPACE", "CI_PROJECT_DIR"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    fs::path workspace = fs::absolute(value, error).lexically_normal();
    if (lies_under(target, workspace) || target == workspace) {
      roots.root = workspace;
      return roots;
    }
  }
  if (fs::path top = git_top_level(target); !top.empty()) {
    roots.root = top;
  } else if (!lies_under(target, cwd) && target != cwd) {
    // Outside the working directory and any repository: the checked directory is the root, so
    // the report names `pkg/a.py`, not the machine's `/home/...` path.
    roots.root = fs::is_directory(target, error) ? target : target.parent_path();
  }
  return roots;
}

}  // namespace torchmigrate::cli
