// SPDX-License-Identifier: MIT
// Text helpers shared by the build-file readers (assignments, cmd scripts, requirement lines).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>

namespace torchmigrate::buildfiles {

// Keywords of case-insensitive formats (Dockerfile instructions, CMake commands, cmd.exe).
inline bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline size_t skip_spaces(std::string_view text, size_t i) {
  while (i < text.size() && is_space(text[i])) ++i;
  return i;
}

// Trailing spaces are not part of a value that runs to the end of the line.
inline size_t trim_end(std::string_view text, size_t from, size_t to) {
  while (to > from && is_space(text[to - 1])) --to;
  return to;
}

}  // namespace torchmigrate::buildfiles
