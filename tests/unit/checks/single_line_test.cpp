// SPDX-License-Identifier: MIT
// single_line quotes source in a message: one line, no comments, the tokens as written.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using torchmigrate::checks::single_line;
using torchmigrate::python::SyntaxTree;

namespace {

std::string quoted(const std::string& source) {
  SyntaxTree tree = SyntaxTree::parse(source);
  // The module's first statement's expression.
  return single_line(tree.root().named_child(0).named_child(0));
}

}  // namespace

TEST_CASE("single_line keeps a one-line expression as written") {
  CHECK(quoted("f(a, b=1)\n") == "f(a, b=1)");
  CHECK(quoted("x[1:2] + y.z\n") == "x[1:2] + y.z");
}

TEST_CASE("single_line drops comments and line breaks, and spaces just inside brackets") {
  CHECK(quoted("f(a,  # why\n  b )\n") == "f(a, b)");
  CHECK(quoted("(\n    a,\n    b,\n)\n") == "(a, b,)");
  CHECK(quoted("a + \\\n    b\n") == "a + b");
}

TEST_CASE("single_line keeps strings whole, escapes and all") {
  CHECK(quoted("f('a\\nb  c',\n  \"#x\")\n") == "f('a\\nb  c', \"#x\")");
}
