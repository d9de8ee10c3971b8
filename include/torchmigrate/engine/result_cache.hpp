// SPDX-License-Identifier: MIT
// Per-file result cache: findings keyed by the file's content, its path, the settings and the
// tool build (version and rule catalog), so an unchanged file costs a hash and a read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::engine {

class ResultCache {
 public:
  explicit ResultCache(std::filesystem::path directory);

  [[nodiscard]] static std::string key(std::string_view path, std::string_view text, const Settings& settings);
  // nullopt on a miss or an unreadable entry (a damaged entry is never trusted).
  [[nodiscard]] std::optional<std::vector<Diagnostic>> load(const std::string& key) const;
  // Best effort: a cache that cannot be written only costs speed.
  void store(const std::string& key, const std::vector<Diagnostic>& diagnostics) const;
  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

 private:
  [[nodiscard]] std::filesystem::path entry(const std::string& key) const;
  std::filesystem::path directory_;
};

}  // namespace torchmigrate::engine
