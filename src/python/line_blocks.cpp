// SPDX-License-Identifier: MIT
#include "torchmigrate/python/line_blocks.hpp"

#include <algorithm>

namespace torchmigrate::python {
namespace {

bool is_word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether the quote at `at` opens an f-string (or a t-string): its prefix names `f` or `t`.
bool formatted_at(std::string_view text, size_t at) {
  size_t start = at;
  while (start > 0 && is_word_byte(text[start - 1])) --start;
  std::string_view prefix = text.substr(start, at - start);
  return prefix.size() <= 2 && prefix.find_first_of("fFtT") != std::string_view::npos &&
         prefix.find_first_not_of("fFtTrRbBuU") == std::string_view::npos;
}

}  // namespace

// One pass over the text, line by line, carrying what stays open at a line's end: brackets, a
// string (a triple-quoted one, or a one-line one continued by a backslash), a backslash.
LineBlocks::LineBlocks(std::string_view text) : text_(text) {
  int brackets = 0;
  char quote = 0;  // the quote of the string the scan is in
  bool triple = false;
  bool formatted = false;
  int braces = 0;  // inside an f-string: its open replacement fields
  bool continued = false;
  for (size_t at = 0;;) {
    size_t end = std::min(text.find('\n', at), text.size());
    Line line{at, end, 0, brackets == 0 && quote == 0 && !continued, false};
    size_t first = at;
    while (first < end && (text[first] == ' ' || text[first] == '\t' || text[first] == '\f')) {
      if (text[first] == '\t' && line.starts_statement) unreadable_ = true;  // tabs: widths are ambiguous
      ++first;
    }
    line.indent = static_cast<uint32_t>(first - at);
    line.blank = first == end || text[first] == '#' || text[first] == '\r';
    continued = false;
    for (size_t k = quote != 0 ? at : first; k < end; ++k) {
      char c = text[k];
      if (quote != 0) {
        if (c == '\\') {
          ++k;
        } else if (c == quote && (!triple || (k + 2 < text.size() && text[k + 1] == c && text[k + 2] == c))) {
          k += triple ? 2 : 0;
          quote = 0;
        } else if (formatted && c == '{') {
          ++braces;
        } else if (formatted && c == '}' && braces > 0) {
          --braces;
        } else if (formatted && braces > 0 && (c == '"' || c == '\'')) {
          unreadable_ = true;  // a quote inside a replacement field: where the string ends needs a parser
        }
        continue;
      }
      if (c == '#') break;
      if (c == '\'' || c == '"') {
        quote = c;
        triple = k + 2 < end && text[k + 1] == c && text[k + 2] == c;
        formatted = formatted_at(text, k);
        braces = 0;
        k += triple ? 2 : 0;
      } else if (c == '(' || c == '[' || c == '{') {
        ++brackets;
      } else if ((c == ')' || c == ']' || c == '}') && brackets > 0) {
        --brackets;
      } else if (c == '\\') {
        continued = k + 1 == end || (k + 2 == end && text[k + 1] == '\r');
      }
    }
    // A one-line string open at the end of its line goes on only after a backslash.
    if (quote != 0 && !triple) {
      bool escaped =
          end > at && (text[end - 1] == '\\' || (end > at + 1 && text[end - 1] == '\r' && text[end - 2] == '\\'));
      if (!escaped) unreadable_ = true, quote = 0;
    }
    lines_.push_back(line);
    if (end >= text.size()) break;
    at = end + 1;
  }
  if (brackets != 0 || quote != 0) unreadable_ = true;
}

size_t LineBlocks::line_of(size_t offset) const {
  auto after = std::upper_bound(lines_.begin(), lines_.end(), offset,
                                [](size_t value, const Line& line) { return value < line.start; });
  return after == lines_.begin() ? 0 : static_cast<size_t>(after - lines_.begin()) - 1;
}

size_t LineBlocks::statement_line_of(size_t line) const {
  while (line > 0 && !lines_[line].starts_statement) --line;
  return line;
}

std::string_view LineBlocks::statement_up_to(size_t offset) const {
  size_t line = line_of(offset);
  size_t start = lines_[statement_line_of(line)].start;
  return text_.substr(start, lines_[line].end - start);
}

std::vector<std::string_view> LineBlocks::enclosing_headers(size_t offset) const {
  std::vector<std::string_view> headers;
  size_t statement = statement_line_of(line_of(offset));
  uint32_t limit = lines_[statement].indent;
  for (size_t k = statement; k-- > 0 && limit > 0;) {
    const Line& line = lines_[k];
    if (!line.starts_statement || line.blank || line.indent >= limit) continue;
    size_t last = k;  // a header may go on over lines: `with (\n    a(),\n):`
    while (last + 1 < statement && !lines_[last + 1].starts_statement) ++last;
    headers.push_back(text_.substr(line.start + line.indent, lines_[last].end - line.start - line.indent));
    limit = line.indent;
  }
  return headers;
}

}  // namespace torchmigrate::python
