// SPDX-License-Identifier: MIT
// The blocks of Python source read from its lines and their indentation, without parsing: which
// compound-statement headers enclose a line. A check may ask it before a file is parsed, to rule
// the file out; where the text cannot be read this way (a tab in an indentation, a string or a
// bracket left open), unreadable() says so and nothing may be ruled out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace torchmigrate::python {

class LineBlocks {
 public:
  explicit LineBlocks(std::string_view text);

  [[nodiscard]] bool unreadable() const { return unreadable_; }
  // The text of the logical line that holds `offset`, from its first byte to the end of the
  // physical line holding `offset`.
  [[nodiscard]] std::string_view statement_up_to(size_t offset) const;
  // The headers around the logical line holding `offset` (each a whole logical line), innermost
  // first: each less indented than the last, up to one at the left margin.
  [[nodiscard]] std::vector<std::string_view> enclosing_headers(size_t offset) const;

 private:
  struct Line {
    size_t start = 0;
    size_t end = 0;                 // before its newline
    uint32_t indent = 0;            // in spaces
    bool starts_statement = false;  // not inside brackets, a string or after a backslash
    bool blank = false;             // nothing but spaces or a comment
  };

  [[nodiscard]] size_t line_of(size_t offset) const;
  [[nodiscard]] size_t statement_line_of(size_t line) const;

  std::string_view text_;
  std::vector<Line> lines_;
  bool unreadable_ = false;
};

}  // namespace torchmigrate::python
