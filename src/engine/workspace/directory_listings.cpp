// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/directory_listings.hpp"

#include <dirent.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "torchmigrate/engine/workspace/torch_range.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

bool DirectoryListings::kept(std::string_view name) {
  return name == ".git" || name == ".gitignore" || name == ".torchmigrate.toml" || name == "torchmigrate.toml" ||
         name == "pyproject.toml" || is_pin_file_name(name);
}

DirectoryListings::Kind DirectoryListings::kind_of_type(unsigned char type) {
  if (type == DT_REG) return Kind::Regular;
  if (type == DT_DIR) return Kind::Directory;
  return type == DT_LNK || type == DT_UNKNOWN ? Kind::Unsure : Kind::Other;
}

const DirectoryListings::Listing& DirectoryListings::listing(const std::string& directory) {
  if (auto found = listings_.find(directory); found != listings_.end()) return found->second.entries;
  Listing entries;
  if (DIR* stream = ::opendir(directory.c_str())) {
    while (const dirent* entry = ::readdir(stream)) {
      if (kept(entry->d_name)) entries.emplace_back(entry->d_name, kind_of_type(entry->d_type));
    }
    ::closedir(stream);
  }
  std::sort(entries.begin(), entries.end());
  return listings_.emplace(directory, Listed{std::move(entries), {}}).first->second.entries;
}

void DirectoryListings::adopt(const std::string& directory,
                              const std::vector<std::pair<std::string, unsigned char>>& entries, std::string real) {
  Listing kept_entries;
  for (const auto& [name, type] : entries) {
    if (kept(name)) kept_entries.emplace_back(name, kind_of_type(type));
  }
  std::sort(kept_entries.begin(), kept_entries.end());
  std::lock_guard lock(mutex_);
  listings_.try_emplace(directory, Listed{std::move(kept_entries), std::move(real)});
}

std::optional<std::string> DirectoryListings::real_path(const std::string& directory) {
  std::lock_guard lock(mutex_);
  auto found = listings_.find(directory);
  if (found == listings_.end() || found->second.real.empty()) return std::nullopt;
  return found->second.real;
}

DirectoryListings::Kind DirectoryListings::kind_of(const std::string& directory, std::string_view name) {
  if (kept(name)) {
    std::lock_guard lock(mutex_);
    const Listing& entries = listing(directory);
    auto found = std::lower_bound(entries.begin(), entries.end(), name,
                                  [](const auto& entry, std::string_view value) { return entry.first < value; });
    return found != entries.end() && found->first == name ? found->second : Kind::Absent;
  }
  return Kind::Unsure;  // not listed: the caller asks the file system
}

bool DirectoryListings::has_regular_file(const std::string& directory, std::string_view name) {
  Kind kind = kind_of(directory, name);
  std::error_code error;
  return kind == Kind::Regular || (kind == Kind::Unsure && fs::is_regular_file(fs::path(directory) / name, error));
}

bool DirectoryListings::has(const std::string& directory, std::string_view name) {
  Kind kind = kind_of(directory, name);
  std::error_code error;
  return kind == Kind::Unsure ? fs::exists(fs::path(directory) / name, error) : kind != Kind::Absent;
}

bool DirectoryListings::has_regular_file_where(const std::string& directory,
                                               const std::function<bool(std::string_view name)>& wanted) {
  std::vector<std::string> unsure;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, kind] : listing(directory)) {
      if (!wanted(name)) continue;
      if (kind == Kind::Regular) return true;
      if (kind == Kind::Unsure) unsure.push_back(name);
    }
  }
  std::error_code error;
  return std::any_of(unsure.begin(), unsure.end(),
                     [&](const std::string& name) { return fs::is_regular_file(fs::path(directory) / name, error); });
}

}  // namespace torchmigrate::engine
