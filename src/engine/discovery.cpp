// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/discovery.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

Language language_for(const fs::path& path) {
  std::string extension = path.extension().string();
  if (extension == ".py" || extension == ".pyi") return Language::Python;
  for (std::string_view cxx : {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh"}) {
    if (extension == cxx) return Language::Cxx;
  }
  // setup.py stays Python; the linter also runs the build rules on it.
  if (buildfiles::kind_for(path) != buildfiles::FileKind::Unknown) return Language::BuildFile;
  return Language::Unknown;
}

Language language_for(const fs::path& path, const buildfiles::ExtraExtensions& build_extensions) {
  Language language = language_for(path);
  if (language != Language::Unknown) return language;
  return buildfiles::kind_for(path, build_extensions) != buildfiles::FileKind::Unknown ? Language::BuildFile
                                                                                       : Language::Unknown;
}

bool is_default_excluded(const std::string& name) {
  static constexpr std::array<std::string_view, 16> kExcluded = {
      ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".ruff_cache", ".pytest_cache",
      "__pycache__", "node_modules", "site-packages", "build", "dist", ".eggs"};
  return std::find(kExcluded.begin(), kExcluded.end(), name) != kExcluded.end();
}

Discovery discover(const std::vector<std::string>& paths, const buildfiles::ExtraExtensions& build_extensions) {
  Discovery result;
  for (const std::string& argument : paths) {
    fs::path root = fs::path(argument).lexically_normal();
    std::error_code error;
    fs::file_status status = fs::status(root, error);
    if (error || !fs::exists(status)) {
      result.errors.push_back(argument + ": no such file or directory");
      continue;
    }
    if (!fs::is_directory(status)) {
      result.files.push_back({root, language_for(root, build_extensions)});
      continue;
    }
    // Links are not followed, so a walk never leaves the tree it was given.
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
    if (error) {
      result.errors.push_back(argument + ": " + error.message());
      continue;
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (error) {
        result.errors.push_back(it->path().string() + ": " + error.message());
        break;
      }
      const fs::directory_entry& entry = *it;
      if (entry.is_symlink(error)) continue;
      if (entry.is_directory(error)) {
        if (is_default_excluded(entry.path().filename().string())) it.disable_recursion_pending();
        continue;
      }
      Language language = language_for(entry.path(), build_extensions);
      if (language != Language::Unknown && entry.is_regular_file(error)) {
        result.files.push_back({entry.path().lexically_normal(), language});
      }
    }
  }
  std::sort(result.files.begin(), result.files.end(),
            [](const DiscoveredFile& a, const DiscoveredFile& b) { return a.path < b.path; });
  result.files.erase(std::unique(result.files.begin(), result.files.end(),
                                 [](const DiscoveredFile& a, const DiscoveredFile& b) { return a.path == b.path; }),
                     result.files.end());
  return result;
}

}  // namespace torchmigrate::engine
