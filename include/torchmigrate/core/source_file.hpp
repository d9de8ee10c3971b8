// SPDX-License-Identifier: MIT
// A file's bytes with a line index (lines end at `\r\n`, `\r` or `\n`, as Python's tokenizer ends them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate {

// Notebook: a Jupyter notebook's JSON bytes; its code cells are linted as one Python module.
enum class Language { Python, Cxx, BuildFile, Notebook, Unknown };

struct LineColumn {
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in Unicode code points (what editors and Ruff show)
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  [[nodiscard]] uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // 0-based line number holding the byte at `offset`.
  [[nodiscard]] uint32_t line_of(uint32_t offset) const;
  [[nodiscard]] uint32_t line_start(uint32_t line) const { return line_starts_.at(line); }
  // Byte range of the 0-based line, without its line terminator.
  [[nodiscard]] TextRange line_range(uint32_t line, std::string_view text) const;
  [[nodiscard]] LineColumn location(uint32_t offset, std::string_view text) const;

 private:
  std::vector<uint32_t> line_starts_;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text, Language language = Language::Unknown);
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] Language language() const { return language_; }
  [[nodiscard]] const LineIndex& lines() const { return lines_; }
  [[nodiscard]] std::string_view slice(TextRange range) const {
    return std::string_view(text_).substr(range.start, range.length());
  }
  [[nodiscard]] LineColumn location(uint32_t offset) const { return lines_.location(offset, text_); }
  // The line ending of the file's first line ("\r\n", "\r" or "\n"), for inserted lines.
  [[nodiscard]] std::string_view line_ending() const;

 private:
  std::string path_;
  std::string text_;
  Language language_;
  LineIndex lines_;
};

}  // namespace torchmigrate
