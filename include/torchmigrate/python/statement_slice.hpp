// SPDX-License-Identifier: MIT
// The statements of a Python file that a few checks need, chosen from its text before parsing,
// so that a large file one narrow rule admits is parsed only in those places (docs/architecture.md,
// "Sliced parses"). A check that accepts a slice names its anchor words and promises that each of
// its findings and fixes lies in a statement holding one of them (in code, a string or a comment),
// and depends only on what the slice keeps besides:
//   - every import, `global` and `nonlocal` statement;
//   - the statements that may bind a name the kept statements use (`x = ...`, `for x in`,
//     `with ... as x`, `def x`), and what those use in turn;
//   - aliases of kept names (`f = a.b`, `f = a if c else b`: their names become anchors when
//     they alias an anchor) and dictionaries assigned in an anchor statement (`opts = {"key": v}`:
//     the name becomes an anchor);
//   - the headers around each kept statement, the clauses of its `if`/`try`, its decorators, the
//     early exits before it (`if torch.__version__ < "2.9": return`), an `if` chain testing
//     `hasattr`/`getattr` whole, and the returns of a helper a guard calls, which compatibility
//     guards read.
// Each kept header keeps its first statement too, so the slice parses as Python.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchmigrate::python {

// A row and a byte column, as tree-sitter places a byte.
struct RowColumn {
  uint32_t row = 0;
  uint32_t column = 0;
};

// Whole lines to parse: bytes [start, end), and where those bytes stand (the end's column is 0
// unless the text ends inside the span's last line).
struct SliceSpan {
  uint32_t start = 0;
  uint32_t end = 0;
  RowColumn start_at;
  RowColumn end_at;
};

// The spans holding what checks with these anchor words need, in order, or nullopt when the text
// cannot be read without a parser (a tab or form feed in an indentation, a lone carriage return,
// a string or bracket left open, an indentation Python would reject, quotes inside an f-string's
// braces) or when the slice would keep more than half of it.
// `markers` (the spellings compatibility guards look for) keep every statement holding one, as a
// substring: a guard reads them in a branch's or a `try`'s text.
std::optional<std::vector<SliceSpan>> slice_statements(std::string_view text, const std::vector<std::string>& anchors,
                                                       const std::vector<std::string>& markers = {});

}  // namespace torchmigrate::python
