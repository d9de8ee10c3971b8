// SPDX-License-Identifier: MIT
// Which line's directive suppresses a finding, as Ruff decides: a `# noqa` can only go at the end
// of a backslash-continued line's last physical line, or of the line where a string spanning
// several lines closes, so that directive covers findings on every line of the range. Every
// other line is its own. Reading directives (Suppressions::apply, TM001) and writing them
// (--add-noqa, the editor's "suppress" action) resolve lines through the same map.
#pragma once

#include <cstdint>
#include <vector>

#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

class NoqaLines {
 public:
  struct Span {
    uint32_t first = 0;  // 0-based, inclusive
    uint32_t last = 0;
  };

  NoqaLines() = default;  // every line is its own
  // The spans of a Python file: its lines that end in a line-continuation backslash (one in a
  // comment is none) and the strings spanning several lines (Ruff maps triple-quoted ones; a
  // quoted string continued by a backslash has no other place for a comment either). Spans
  // that share a line are merged. `comments` are the file's comment ranges, sorted.
  static NoqaLines of(const SourceFile& file, const python::SyntaxTree& tree, const std::vector<TextRange>& comments);

  // The line whose directive covers a finding on `line`.
  [[nodiscard]] uint32_t resolve(uint32_t line) const;
  [[nodiscard]] const std::vector<Span>& spans() const { return spans_; }

 private:
  std::vector<Span> spans_;  // sorted, disjoint, each of two lines or more
};

}  // namespace torchmigrate::engine
