// SPDX-License-Identifier: MIT
#include "torchmigrate/core/source_file.hpp"

#include <algorithm>
#include <cstring>

namespace torchmigrate {

// Lines end as Python's tokenizer ends them: at `\r\n`, a lone `\r` or `\n`. A form feed is
// whitespace and U+2028/U+2029 are ordinary characters in Python source, so neither ends a line.
LineIndex::LineIndex(std::string_view text) {
  line_starts_.push_back(0);
  if (std::memchr(text.data(), '\r', text.size()) == nullptr) {
    // Most files end lines with \n alone: memchr finds each far faster than a loop over bytes.
    for (const char *at = text.data(), *end = at + text.size();
         (at = static_cast<const char*>(std::memchr(at, '\n', static_cast<size_t>(end - at)))) != nullptr;) {
      ++at;
      line_starts_.push_back(static_cast<uint32_t>(at - text.data()));
    }
    return;
  }
  for (uint32_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    if (text[i] == '\n' || text[i] == '\r') line_starts_.push_back(i + 1);
  }
}

uint32_t LineIndex::line_of(uint32_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<uint32_t>(it - line_starts_.begin()) - 1;
}

TextRange LineIndex::line_range(uint32_t line, std::string_view text) const {
  uint32_t start = line_starts_.at(line);
  uint32_t end = line + 1 < line_starts_.size() ? line_starts_[line + 1] : static_cast<uint32_t>(text.size());
  if (end > start && text[end - 1] == '\n') --end;
  if (end > start && text[end - 1] == '\r') --end;
  return {start, end};
}

LineColumn LineIndex::location(uint32_t offset, std::string_view text) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  uint32_t line = line_of(offset);
  uint32_t column = 1;
  for (uint32_t i = line_starts_[line]; i < offset; ++i) {
    // Count code points: skip UTF-8 continuation bytes.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  return {line + 1, column};
}

SourceFile::SourceFile(std::string path, std::string text, Language language)
    : path_(std::move(path)), text_(std::move(text)), language_(language), lines_(text_) {}

std::string_view SourceFile::line_ending() const {
  size_t end = text_.find_first_of("\r\n");
  if (end == std::string::npos || text_[end] == '\n') return "\n";
  return end + 1 < text_.size() && text_[end + 1] == '\n' ? "\r\n" : "\r";
}

}  // namespace torchmigrate
