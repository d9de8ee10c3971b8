// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/working_directory.hpp"

#include <optional>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

fs::path absolute_path(const fs::path& path) {
  static const std::optional<fs::path> working_directory = []() -> std::optional<fs::path> {
    std::error_code error;
    fs::path directory = fs::current_path(error);
    if (error) return std::nullopt;
    return directory;
  }();
  std::error_code error;
  if (!working_directory || path.is_absolute()) return fs::absolute(path, error);
  return path.empty() ? *working_directory : *working_directory / path;
}

}  // namespace torchmigrate::engine
