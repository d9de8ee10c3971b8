// SPDX-License-Identifier: MIT
// Reading source files and writing fixed ones atomically (temporary file + rename), keeping
// permissions and refusing to overwrite a file that changed since it was read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace torchmigrate::engine {

struct ReadResult {
  std::optional<std::string> text;
  std::string error;  // set when text is empty
};

ReadResult read_file(const std::filesystem::path& path);

// Writes `content` to `path` only if the file still holds `expected`; returns an error message
// or an empty string.
std::string write_file_atomically(const std::filesystem::path& path, const std::string& content,
                                  const std::string& expected);

}  // namespace torchmigrate::engine
