// SPDX-License-Identifier: MIT
// Splits a build file into logical lines: backslash continuations joined (CMake: commands
// spanning lines), comments removed per file kind, every kept byte mapped back to its offset
// in the original text so findings and edits point at the real file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::buildfiles {

struct LogicalLine {
  std::string text;               // code only: continuations joined, comments dropped
  std::vector<uint32_t> offsets;  // offsets[i] = file offset of text[i]; one extra entry: end of the code
  uint32_t begin = 0;             // start of the first physical line
  uint32_t end = 0;               // just past the last physical line's terminator (or end of file)
  uint32_t indent = 0;            // leading spaces/tabs of the first physical line

  // File range of the token text[from, to): ends just past its last byte.
  [[nodiscard]] TextRange token_range(size_t from, size_t to) const {
    if (from >= to) return {offsets[from], offsets[from]};
    return {offsets[from], offsets[to - 1] + 1};
  }
  // File range from text[from] up to text[to] (or the end of the code), continuations included.
  [[nodiscard]] TextRange span(size_t from, size_t to) const { return {offsets[from], offsets[to]}; }
};

std::vector<LogicalLine> logical_lines(std::string_view text, FileKind kind);

// Offset where a `#` comment starts in `line` (or line.size()), tracking quotes from `quote`
// (0, '\'' or '"'), which is updated to the state at the end of the line.
size_t comment_start(std::string_view line, FileKind kind, char& quote);

}  // namespace torchmigrate::buildfiles
