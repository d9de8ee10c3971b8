// SPDX-License-Identifier: MIT
// The one temporary-directory helper of the unit tests: a fresh directory under the system temp
// dir, removed at scope exit, and a file writer for it.
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

  // Writes `text` to `relative` below the directory; returns the file's path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const;
};

// Writes `text` to `path`, creating its folders.
inline void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::filesystem::path TempDir::write(const std::string& relative, const std::string& text) const {
  std::filesystem::path file = path / relative;
  testing::write(file, text);
  return file;
}

}  // namespace torchmigrate::testing
