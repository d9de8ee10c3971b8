// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/toml_guard.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <memory>

namespace torchmigrate::buildfiles {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool starts(std::string_view text, size_t at, std::string_view what) { return text.substr(at, what.size()) == what; }

constexpr const char* kOutsideStrings = "non-ASCII character outside a string or comment";
constexpr const char* kAfterBackslash =
    "non-ASCII character right after a backslash, or after the line break a backslash ends, in a "
    "string (write it as a \\uXXXX escape)";

// toml++ also tests a string's character for whitespace (the same undefined behaviour) right
// after a backslash: an escape (`\é` is no valid one) or, in a multi-line string, the first
// character after the spaces and line breaks that a line-ending backslash trims. The offset of
// that character when it is not ASCII, else npos.
size_t refused_after_backslash(std::string_view text, size_t backslash, bool multi_line) {
  size_t next = backslash + 1;
  if (multi_line) next = std::min(text.find_first_not_of(" \t\r\n", next), text.size());
  return next < text.size() && static_cast<unsigned char>(text[next]) >= 0x80 ? next : std::string_view::npos;
}

// The offset just past the string whose opening quote is at `at`, or of a character in it that
// must be refused (`refused`, else npos). Escapes count only in basic strings ("); a
// single-line string also ends at a line break (an error left to toml++). A multi-line string
// may end with up to two more quotes, which belong to its content.
size_t skip_string(std::string_view text, size_t at, size_t& refused) {
  const char quote = text[at];
  const bool basic = quote == '"';
  const std::string_view triple = basic ? "\"\"\"" : "'''";
  const bool multi_line = starts(text, at, triple);
  size_t i = at + (multi_line ? 3 : 1);
  while (i < text.size()) {
    char c = text[i];
    if (basic && c == '\\') {
      refused = refused_after_backslash(text, i, multi_line);
      if (refused != std::string_view::npos) return refused;
      i += 2;  // the escaped character; `\` + line break in a multi-line string skips it alike
    } else if (!multi_line && (c == quote || c == '\n')) {
      return i + 1;
    } else if (multi_line && starts(text, i, triple)) {
      i += 3;
      for (int extra = 0; extra < 2 && i < text.size() && text[i] == quote; ++extra) ++i;
      return i;
    } else {
      ++i;
    }
  }
  return text.size();
}

// 1-based line and column (in code points: UTF-8 continuation bytes do not count) of `offset`.
TomlTextProblem problem_at(std::string_view text, size_t offset, std::string description) {
  TomlTextProblem problem{1, 1, std::move(description)};
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++problem.line;
      line_start = i + 1;
    }
  }
  // toml++ skips a leading byte order mark before it counts columns.
  if (line_start == 0 && starts(text, 0, kByteOrderMark)) line_start = kByteOrderMark.size();
  for (size_t i = line_start; i < offset; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++problem.column;
  }
  return problem;
}

}  // namespace

std::optional<TomlTextProblem> toml_text_problem(std::string_view text) {
  size_t i = starts(text, 0, kByteOrderMark) ? kByteOrderMark.size() : 0;
  // The last character before `i` other than a space or tab. A quote opens a string only where
  // TOML lets one start (a key or a value); elsewhere, as in `x = 1'é`, toml++ reads it as part
  // of a bare value and tests what follows for whitespace, so what follows is not in a string.
  char last = '\n';
  while (i < text.size()) {
    const char c = text[i];
    if ((c == '"' || c == '\'') && std::string_view("=[{,.\n").find(last) != std::string_view::npos) {
      size_t refused = std::string_view::npos;
      i = skip_string(text, i, refused);
      if (refused != std::string_view::npos) return problem_at(text, refused, kAfterBackslash);
      last = c;
    } else if (c == '#') {
      size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end + 1;
      last = '\n';
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return problem_at(text, i, kOutsideStrings);
    } else {
      if (c != ' ' && c != '\t') last = c;
      ++i;
    }
  }
  return std::nullopt;
}

void refuse_unsafe_toml(std::string_view text, std::string_view source_path) {
  std::optional<TomlTextProblem> problem = toml_text_problem(text);
  if (!problem) return;
  toml::source_position position{problem->line, problem->column};
  toml::source_path_ptr path;
  if (!source_path.empty()) path = std::make_shared<const std::string>(source_path);
  throw toml::parse_error(problem->description.c_str(), position, path);  // copies the text
}

}  // namespace torchmigrate::buildfiles
