// SPDX-License-Identifier: MIT
// Writes stay in the project: a file named on the command line may be a symbolic link, and
// writing through it (--add-noqa, --fix) would change a file outside the tree being checked.
#pragma once

#include <filesystem>
#include <string>

namespace torchmigrate::engine {

// Why writing to `path` would leave its tree once symbolic links are resolved, or "" when the
// file it names lies inside (--follow-links allows the write anyway). The tree is the nearest
// directory above the path as named holding `.git`; outside a repository, the working directory
// when the path lies below it, else the path's directory.
std::string write_leaves_project(const std::filesystem::path& path);

}  // namespace torchmigrate::engine
