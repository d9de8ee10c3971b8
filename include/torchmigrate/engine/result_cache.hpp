// SPDX-License-Identifier: MIT
// Per-file result cache: findings keyed by the file's content, its path inside its project, the
// settings and the tool build (version and rule catalog), so an unchanged file costs a hash and
// a read, in any checkout of the project.
//
// An entry is never trusted as stored: it carries its format version, the tool version, the
// catalog hash, the settings hash, its own key and a checksum of all of it, and every finding
// is checked against the file (known code and severity, ranges inside the text). An entry that
// does not verify is a miss, and the fresh findings replace it.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/config.hpp"
#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::engine {

// The environment variable naming a cache directory, like --cache-dir.
inline constexpr const char* kCacheDirEnvironment = "TORCHMIGRATE_CACHE_DIR";

class ResultCache {
 public:
  // Opens the cache in `directory`, creating it when missing; a directory created here gets a
  // `.gitignore` (`*`) and a `CACHEDIR.TAG`, an existing one is used as it is. With `confine_to`
  // (a cache-dir from a configuration file) the directory, after resolving symbolic links, must
  // lie inside that directory. Returns nullopt with `problem` set when the cache cannot be used.
  static std::optional<ResultCache> open(const std::filesystem::path& directory,
                                         const std::optional<std::filesystem::path>& confine_to, std::string& problem,
                                         std::ostream* warnings = nullptr);

  [[nodiscard]] static std::string key(std::string_view path, std::string_view text, const Settings& settings);
  // nullopt on a miss or an entry that does not verify against the build, the settings and `text`.
  [[nodiscard]] std::optional<std::vector<Diagnostic>> load(const std::string& key, std::string_view path,
                                                            const Settings& settings, std::string_view text) const;
  // Best effort: a cache that cannot be written only costs speed (said once on `warnings`).
  void store(const std::string& key, std::string_view path, const Settings& settings,
             const std::vector<Diagnostic>& diagnostics) const;
  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

 private:
  ResultCache(std::filesystem::path directory, std::ostream* warnings);
  [[nodiscard]] std::filesystem::path entry(const std::string& key) const;
  void warn_once(const std::string& problem) const;

  std::filesystem::path directory_;
  std::ostream* warnings_ = nullptr;
  std::shared_ptr<std::atomic<bool>> warned_;
};

// The cache a run uses: --cache-dir (`cli_directory`), else $TORCHMIGRATE_CACHE_DIR, else the
// configuration's cache-dir (confined to the configuration's directory); none without any.
// A directory that cannot be used is reported once on `warnings` and the run goes uncached.
std::optional<ResultCache> open_result_cache(const std::string& cli_directory, const ResolvedConfig& config,
                                             std::ostream& warnings);

}  // namespace torchmigrate::engine
