// SPDX-License-Identifier: MIT
#include "torchmigrate/python/word_places.hpp"

#include <algorithm>
#include <cstring>

namespace torchmigrate::python {
namespace {

bool is_word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// The string prefix before a quote (`rb`, `f`, ...), or "" when the word there is none.
std::string_view string_prefix(std::string_view text, size_t quote) {
  size_t start = quote;
  while (start > 0 && is_word_byte(text[start - 1])) --start;
  std::string_view prefix = text.substr(start, quote - start);
  if (prefix.size() > 2) return {};
  bool letters =
      std::all_of(prefix.begin(), prefix.end(), [](char c) { return std::strchr("rRbBuUfFtT", c) != nullptr; });
  return letters ? prefix : std::string_view{};
}

// The first `#`, `'` or `"` from `from`: a byte loop, where find_first_of would call memchr on
// its three bytes for every byte of the text.
size_t next_comment_or_quote(std::string_view text, size_t from) {
  for (size_t at = from; at < text.size(); ++at) {
    char c = text[at];
    if (c == '#' || c == '\'' || c == '"') return at;
  }
  return std::string_view::npos;
}

}  // namespace

WordPlaces::Span WordPlaces::comment_at(size_t hash) const {
  size_t end = text_.find('\n', hash);
  return {hash, end == std::string_view::npos ? text_.size() : end, false};
}

// One string literal from its opening quote to past its closing one (an unterminated one-line
// string ends with its line, as the tokenizer reports it).
WordPlaces::Span WordPlaces::string_at(size_t quote) {
  const char delimiter = text_[quote];
  std::string_view prefix = string_prefix(text_, quote);
  const bool formatted = prefix.find_first_of("fFtT") != std::string_view::npos;
  auto closes_triple = [&](size_t at) {
    return at + 2 < text_.size() && text_[at] == delimiter && text_[at + 1] == delimiter && text_[at + 2] == delimiter;
  };
  const bool triple = closes_triple(quote);
  size_t at = quote + (triple ? 3 : 1);
  int braces = 0;
  bool spaced = false;
  for (; at < text_.size(); ++at) {
    char c = text_[at];
    if (c == '\\') {
      ++at;
    } else if (triple ? closes_triple(at) : c == delimiter || c == '\n') {
      break;
    } else if (formatted && c == '{') {
      if (at + 1 < text_.size() && text_[at + 1] == '{') {
        ++at;  // `{{` is a brace in the text
      } else {
        ++braces;
      }
    } else if (formatted && c == '}' && braces > 0) {
      --braces;
    } else if (formatted && braces > 0 && (c == '"' || c == '\'')) {
      unsure_ = true;
    }
    spaced = spaced || is_space(c);
  }
  size_t end = at >= text_.size() ? text_.size() : text_[at] == '\n' ? at : at + (triple ? 3 : 1);
  return {quote - prefix.size(), end, formatted || !spaced};
}

bool WordPlaces::may_be_code(size_t offset) {
  if (offset < code_from_ && !(offset >= last_.begin && offset < last_.end)) code_from_ = 0, last_ = {};
  for (;;) {
    if (unsure_) return true;
    if (offset >= last_.begin && offset < last_.end) return last_.counts;
    if (offset < code_from_) return true;
    size_t next = next_comment_or_quote(text_, code_from_);
    if (next == std::string_view::npos || next > offset) {
      code_from_ = offset;
      return true;
    }
    last_ = text_[next] == '#' ? comment_at(next) : string_at(next);
    code_from_ = last_.end;
  }
}

}  // namespace torchmigrate::python
