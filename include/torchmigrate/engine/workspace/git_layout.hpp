// SPDX-License-Identifier: MIT
// Where a work tree keeps its git directory, and the two configuration values the ignore rules
// read (core.excludesFile, core.ignoreCase), found the way git finds them. No git library is
// needed for this: loading one cost more than half of a one-file pre-commit run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace torchmigrate::engine {

struct GitLayout {
  std::filesystem::path git_dir;     // `.git`, or where a `.git` file (worktree, submodule) points
  std::filesystem::path common_dir;  // holds info/exclude and config (a worktree shares its main one's)
};

// The layout when `directory` is the top of a work tree (it holds a `.git` naming a repository).
std::optional<GitLayout> git_layout_at(const std::filesystem::path& directory);

struct GitIgnoreSettings {
  std::optional<std::filesystem::path> excludes_file;  // core.excludesFile, or git's default if it exists
  bool ignore_case = false;                            // core.ignoreCase
};

// The settings from the system, global and repository configuration, the last one read winning.
GitIgnoreSettings git_ignore_settings(const GitLayout& layout);

}  // namespace torchmigrate::engine
