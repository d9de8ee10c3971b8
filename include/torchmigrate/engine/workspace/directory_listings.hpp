// SPDX-License-Identifier: MIT
// What a directory holds, read with one readdir and kept for the run: whether it has a
// configuration file, `.git`, a `.gitignore` or dependency pins. The configuration resolver, the
// project index and the .gitignore reader ask this of every directory of a walk; one listing
// shared by the three answers what took a stat or open per name and component. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace torchmigrate::engine {

class DirectoryListings {
 public:
  // Whether `directory` holds `name` as a regular file, following a symbolic link.
  bool has_regular_file(const std::string& directory, std::string_view name);
  // Whether `directory` holds `name` at all, following a symbolic link (a dangling one is not there).
  bool has(const std::string& directory, std::string_view name);
  // Whether `directory` holds a regular file (links followed) whose name `wanted` accepts; it
  // may accept kept names only.
  bool has_regular_file_where(const std::string& directory, const std::function<bool(std::string_view name)>& wanted);

  // Takes `directory`'s entries (names with their readdir d_type) from a walk that read it, so
  // that it is not read again, and its real path when the walk knows it (it followed no link to
  // get there). A directory already listed keeps its listing.
  void adopt(const std::string& directory, const std::vector<std::pair<std::string, unsigned char>>& entries,
             std::string real = {});
  // The real path a walk gave with the directory's listing; nothing when none did.
  std::optional<std::string> real_path(const std::string& directory);

  // Whether a listing keeps `name`: only the names the walk asks about are kept, so a listing
  // costs memory for those alone. Another name is looked up on disk.
  static bool kept(std::string_view name);

 private:
  enum class Kind : uint8_t { Absent, Regular, Directory, Other, Unsure };  // Unsure: a link, or no type given
  using Listing = std::vector<std::pair<std::string, Kind>>;                // kept names, sorted
  const Listing& listing(const std::string& directory);                     // mutex_ held
  Kind kind_of(const std::string& directory, std::string_view name);
  static Kind kind_of_type(unsigned char type);  // from a d_type

  std::mutex mutex_;
  struct Listed {
    Listing entries;
    std::string real;  // empty: not known
  };
  std::unordered_map<std::string, Listed> listings_;
};

}  // namespace torchmigrate::engine
