// SPDX-License-Identifier: MIT
#include "torchmigrate/core/source_file.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

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

SourceFile SourceFile::excerpt(const SourceFile& file, const std::vector<TextRange>& spans, ExcerptOffsets& offsets) {
  // Its line numbers would count the excerpt's lines, not the file's.
  if (file.is_excerpt()) throw std::logic_error("an excerpt of an excerpt of " + file.path());
  const LineIndex& lines = file.lines_;
  std::vector<std::pair<uint32_t, uint32_t>> kept;  // [first, last] original lines, merged
  for (const TextRange& span : spans) {
    uint32_t end = std::min<uint32_t>(std::max(span.start, span.end), static_cast<uint32_t>(file.text_.size()));
    kept.emplace_back(lines.line_of(std::min(span.start, end)), lines.line_of(end));
  }
  std::sort(kept.begin(), kept.end());
  std::string text;
  std::vector<Run> runs;
  offsets.spans_.clear();
  uint32_t excerpt_lines = 0;
  for (size_t i = 0; i < kept.size();) {
    auto [first, last] = kept[i];
    for (++i; i < kept.size() && kept[i].first <= last + 1; ++i) last = std::max(last, kept[i].second);
    uint32_t start = lines.line_start(first);
    uint32_t end =
        last + 1 < lines.line_count() ? lines.line_start(last + 1) : static_cast<uint32_t>(file.text_.size());
    // A kept line ending in a lone `\r`, followed by one that is only `\n`, would read as one
    // `\r\n` line: the `\r` becomes `\r\n`, which ends its line as before.
    if (!text.empty() && text.back() == '\r' && start < end && file.text_[start] == '\n') text.push_back('\n');
    offsets.spans_.push_back({start, end, static_cast<uint32_t>(text.size())});
    runs.push_back({excerpt_lines, first});
    text.append(file.text_, start, end - start);
    excerpt_lines += last - first + 1;
  }
  SourceFile excerpt(file.path_, std::move(text), file.language_);
  // Never empty, so is_excerpt() holds even for a file without a kept line.
  excerpt.runs_ = runs.empty() ? std::vector<Run>{{0, 0}} : std::move(runs);
  return excerpt;
}

LineColumn SourceFile::location(uint32_t offset) const {
  LineColumn at = lines_.location(offset, text_);
  if (runs_.empty()) return at;
  uint32_t line = at.line - 1;
  auto run = std::prev(std::upper_bound(runs_.begin(), runs_.end(), line, [](uint32_t value, const Run& candidate) {
    return value < candidate.excerpt_line;
  }));
  return {run->original_line + (line - run->excerpt_line) + 1, at.column};
}

uint32_t ExcerptOffsets::operator()(uint32_t original) const {
  auto span = std::upper_bound(spans_.begin(), spans_.end(), original,
                               [](uint32_t value, const Span& candidate) { return value < candidate.original_start; });
  if (span == spans_.begin()) return 0;
  --span;
  return span->excerpt_start + std::min(original, span->original_end) - span->original_start;
}

std::string_view SourceFile::line_ending() const {
  size_t end = text_.find_first_of("\r\n");
  if (end == std::string::npos || text_[end] == '\n') return "\n";
  return end + 1 < text_.size() && text_[end + 1] == '\n' ? "\r\n" : "\r";
}

}  // namespace torchmigrate
