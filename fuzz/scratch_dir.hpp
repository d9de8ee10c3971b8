// SPDX-License-Identifier: MIT
// A private scratch directory per fuzzing process, for the readers that take a path (config
// files, cache entries); removed when the process exits.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace torchmigrate::fuzz {

inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path directory = [] {
    std::filesystem::path made = std::filesystem::temp_directory_path() /
                                 ("torchmigrate-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(made);
    std::atexit([] {
      std::error_code error;
      std::filesystem::remove_all(scratch_dir(), error);
    });
    return made;
  }();
  return directory;
}

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace torchmigrate::fuzz
