// SPDX-License-Identifier: MIT
// A fresh directory under the system temp dir, removed at scope exit, and a file writer for it.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace torchmigrate::testing {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device random;
    path = std::filesystem::temp_directory_path() / ("torchmigrate-test-" + std::to_string(random()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Writes `text` to `path`, creating its folders.
inline void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace torchmigrate::testing
