// SPDX-License-Identifier: MIT
// Python 2 forms that tree-sitter-python still parses without an error, although Python 3
// rejects them: `print "x"`, `exec "code"`, `except E, e:`, `a <> b`, `raise E, "msg"`, `10L`,
// `0777`, `1_`, `` `x` ``, `ur"x"` and other unknown string prefixes, `def f((a, b)):`. The
// Python front reports the first one as a syntax error (TM901), as it does the parser's errors.
#pragma once

#include <optional>
#include <string>

#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

struct Python2Form {
  Node node;            // where CPython points
  std::string message;  // CPython's words, where it has special ones
};

// The first such form of the file, in source order. Cheap: the text is scanned for the few
// spellings that can start one, and only those offsets are looked up in the tree.
std::optional<Python2Form> first_python2_form(const SyntaxTree& tree);

}  // namespace torchmigrate::python
