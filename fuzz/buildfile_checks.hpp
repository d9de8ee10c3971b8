// SPDX-License-Identifier: MIT
// Shared by the build-file targets: the file name that makes each format, and range checks.
#pragma once

#include <string_view>

#include "fuzz_target.hpp"
#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::fuzz {

// One name per build-file format (buildfiles::kind_for decides the kind from it).
inline constexpr std::string_view kBuildFileNames[] = {
    "Dockerfile",   "build.sh",         "ci.yml",       "environment.yml", "CMakeLists.txt",
    "Makefile",     "pyproject.toml",   "setup.cfg",    "requirements.txt", "setup.py",
    ".env",         "build.bat",        "Singularity",  "constraints.txt", "tool.cmake",
};
inline constexpr size_t kBuildFileNameCount = sizeof(kBuildFileNames) / sizeof(kBuildFileNames[0]);

inline void require_inside(const TextRange& range, size_t length) {
  FUZZ_REQUIRE(range.start <= range.end && range.end <= length);
}

// Every logical line's offsets point into the text, in order.
inline void require_valid_lines(const buildfiles::BuildFile& file) {
  for (const buildfiles::LogicalLine& line : file.lines) {
    FUZZ_REQUIRE(line.offsets.size() == line.text.size() + 1);
    FUZZ_REQUIRE(line.begin <= line.end && line.end <= file.text.size());
    for (size_t i = 0; i <= line.text.size(); ++i) FUZZ_REQUIRE(line.offsets[i] <= file.text.size());
    for (size_t i = 0; i < line.text.size(); ++i) {
      // A joined continuation is one space standing where the line break was.
      if (line.text[i] != ' ') FUZZ_REQUIRE(file.text[line.offsets[i]] == line.text[i]);
    }
  }
}

}  // namespace torchmigrate::fuzz
