// SPDX-License-Identifier: MIT
// Turns the paths a user gives into the sorted list of files to check, picking each file's
// front by its name, and skipping directories that never hold project sources.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/workspace/directory_listings.hpp"

namespace torchmigrate::engine {

struct DiscoveredFile {
  // A string, not a std::filesystem::path: a path object keeps each of its components as another
  // path (about 950 bytes a file), which made the list of a large tree a third of a run's memory.
  std::string path;
  Language language = Language::Unknown;
  // The bytes, when they come from elsewhere than `path` (standard input): then `path` only
  // names the file for settings and reports, and fixes are never written to it. A pointer keeps
  // the entry of every walked file small.
  std::shared_ptr<const std::string> contents = nullptr;
  // A regular file reached under its own name, not through a link (by a directory walk, or
  // named so on the command line): its configuration and project follow from its directory,
  // without another lstat.
  bool plain = false;
};

struct Discovery {
  std::vector<DiscoveredFile> files;  // sorted by path_order, no duplicates
  std::vector<std::string> errors;    // paths that do not exist or cannot be listed
  // Paths named to the run that do not exist (a typo): the run fails even when others had files.
  std::vector<std::string> missing;
  std::vector<std::string> notes;     // what was skipped on purpose (links out of the tree)
};

// The order of std::filesystem::path, component by component (a/b.py before a-x/c.py), on the
// normalised path strings that discovery produces.
bool path_order(std::string_view a, std::string_view b);

// Python by extension, BuildFile by buildfiles::kind_for. A file of two fronts stays in one
// list: setup.py is Python, and Linter::lint also runs the build rules on it.
Language language_for(const std::filesystem::path& path);
// Also reads names ending in one of `build_extensions` as build files.
Language language_for(const std::filesystem::path& path, const buildfiles::ExtraExtensions& build_extensions);
// Directory names skipped while walking (explicit file arguments are always checked).
bool is_default_excluded(const std::string& directory_name);
// Symbolic links met while walking a directory are never followed out of it: a link to a file
// inside the walked tree is checked once, under the file's real path; a link to a file outside
// it is skipped with a note; links to directories are not followed. A path given explicitly is
// checked even when it is a link (fixes are then written to the file it points at).
// What configuration adds to a walk: excludes (globs, .gitignore) and extra file endings.
struct DiscoveryFilter {
  // True for a file or directory the walk must skip; `directory` says which the path is.
  std::function<bool(const std::filesystem::path& path, bool directory)> excluded;
  // The front for a file; Language::Unknown skips it. The walk asks only about paths that exist
  // and are no directory, so an implementation may go by the file's directory alone.
  std::function<Language(const std::filesystem::path& path)> language;
  // Apply `excluded` to paths named on the command line too (pre-commit passes every file).
  bool force_exclude = false;
  // Given each walked directory's entries from the walk's own read, keyed as the configuration
  // resolver asks (absolute, lexically normal), so that the filters above need not read it again,
  // with its real path (the walk followed no link to reach it).
  DirectoryListings* listings = nullptr;
  // Told of each file as the walk finds it, with its real path, before the list is sorted and a
  // file reached twice is dropped (so the checks can start while the walk goes on).
  std::function<void(const DiscoveredFile& file, std::string_view real_path)> found;
};
Discovery discover(const std::vector<std::string>& paths, const buildfiles::ExtraExtensions& build_extensions = {},
                   const DiscoveryFilter* filter = nullptr);

}  // namespace torchmigrate::engine
