// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/confined_write.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

bool is_below(const fs::path& path, const fs::path& root) {
  fs::path relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// The repository a write may not leave (not the nearest pinned project: a link from one
// package of a monorepo to another stays in the tree).
fs::path tree_root_of(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error).lexically_normal();
  // Lexical ancestors: the tree the user named, not the one a link leads to.
  for (fs::path directory = absolute.parent_path();; directory = directory.parent_path()) {
    if (fs::exists(directory / ".git", error)) return directory;
    if (!directory.has_relative_path()) break;
  }
  fs::path cwd = fs::current_path(error).lexically_normal();
  return !error && is_below(absolute, cwd) ? cwd : absolute.parent_path();
}

}  // namespace

std::string write_leaves_project(const fs::path& path) {
  std::error_code error;
  fs::path root = tree_root_of(path);
  fs::path target = fs::canonical(path, error);
  if (error) return {};  // nothing to follow; the write itself reports a missing file
  fs::path real_root = fs::canonical(root, error);
  if (error) real_root = root;
  if (is_below(target, real_root)) return {};
  return "it is a symbolic link to " + target.string() + ", outside the project " + root.string() +
         "; left unchanged (pass --follow-links to write through links)";
}

}  // namespace torchmigrate::engine
