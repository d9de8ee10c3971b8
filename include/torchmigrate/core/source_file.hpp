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

// An offset translation from a file to an excerpt of it (SourceFile::excerpt).
class ExcerptOffsets;

class SourceFile {
 public:
  SourceFile(std::string path, std::string text, Language language = Language::Unknown);
  // The whole lines of `file` that `spans` reach (each from its first line to its last), as a
  // file of their own: what a report keeps of a file once its findings are known. Locations
  // still name the original lines; `offsets` receives the translation of offsets in kept lines.
  static SourceFile excerpt(const SourceFile& file, const std::vector<TextRange>& spans, ExcerptOffsets& offsets);
  // True for an excerpt: text() holds only some of the file's lines.
  [[nodiscard]] bool is_excerpt() const { return !runs_.empty(); }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] Language language() const { return language_; }
  [[nodiscard]] const LineIndex& lines() const { return lines_; }
  [[nodiscard]] std::string_view slice(TextRange range) const {
    return std::string_view(text_).substr(range.start, range.length());
  }
  // 1-based line (of the original file, for an excerpt) and column.
  [[nodiscard]] LineColumn location(uint32_t offset) const;
  // The line ending of the file's first line ("\r\n", "\r" or "\n"), for inserted lines.
  [[nodiscard]] std::string_view line_ending() const;

 private:
  // Consecutive kept lines: where they start in the excerpt and in the original file.
  struct Run {
    uint32_t excerpt_line = 0;
    uint32_t original_line = 0;
  };

  std::string path_;
  std::string text_;
  Language language_;
  LineIndex lines_;
  std::vector<Run> runs_;  // empty for a whole file
};

class ExcerptOffsets {
 public:
  // The excerpt's offset of `original`, which must lie in a kept line (or at its end).
  [[nodiscard]] uint32_t operator()(uint32_t original) const;

 private:
  friend class SourceFile;
  struct Span {
    uint32_t original_start = 0;
    uint32_t original_end = 0;
    uint32_t excerpt_start = 0;
  };
  std::vector<Span> spans_;  // by original_start
};

}  // namespace torchmigrate
