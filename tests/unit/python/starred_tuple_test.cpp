// SPDX-License-Identifier: MIT
// The front's workaround for tree-sitter-python 0.23.6 rejecting starred tuple elements whose
// operand is not a name, attribute or subscript (see syntax_tree.cpp).
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate::python;

namespace {

bool parses(const std::string& source) { return !SyntaxTree::parse(source).first_error().has_value(); }

Node find_kind(Node node, std::string_view kind) {
  if (node.kind() == kind) return node;
  for (uint32_t i = 0; i < node.child_count(); ++i) {
    if (Node found = find_kind(node.child(i), kind)) return found;
  }
  return {};
}

}  // namespace

TEST_CASE("a starred tuple element with a parenthesized operand is valid Python") {
  // Reduced from an autograd Function's backward in a flash-attention kernel library.
  CHECK(parses("class F:\n    @staticmethod\n    def backward(ctx, dout):\n"
               "        return dq, dk, dv, *((None,) * 5)\n"));
  CHECK(parses("def f():\n    return a, *(b)\n"));
  CHECK(parses("def f():\n    return *(b), a\n"));
  CHECK(parses("def f():\n    yield a, *[b]\n"));
  CHECK(parses("x = *(b), a\n"));
  CHECK(parses("x = a, *[b], *(c)\n"));
  CHECK(parses("x += a, *(b)\n"));
  CHECK(parses("a, *(b) = c\n"));
  CHECK(parses("for x in a, *(b):\n    pass\n"));
  CHECK(parses("x[a, *(b)]\n"));
  CHECK(parses("def f():\n    return a, *-b\n"));
}

TEST_CASE("rejected stars far apart in a long file are all found") {
  std::string source = "x = a, *(b)\n";
  for (int i = 0; i < 50; ++i) source += "def f" + std::to_string(i) + "(v):\n    return v * 2, *v\n";
  source += "y = c, *(d)\nfor x in a, *(b):\n    pass\n";
  CHECK(parses(source));
}

TEST_CASE("the retried parse keeps every offset and the original text") {
  std::string source = "import torch\ndef f():\n    return a, *(b)\ntorch.export.export(m)\n";
  SyntaxTree tree = SyntaxTree::parse(source);
  REQUIRE_FALSE(tree.first_error());
  Node returned = find_kind(tree.root(), "return_statement");
  REQUIRE(returned);
  CHECK(returned.text() == "return a, *(b)");
  Node element = find_kind(returned, "parenthesized_expression");
  REQUIRE(element);
  CHECK(element.start() == source.find("(b)"));
  Node call = find_kind(tree.root(), "call");
  REQUIRE(call);
  CHECK(call.text() == "torch.export.export(m)");
}

TEST_CASE("valid code keeps its list_splat; products and real errors are left alone") {
  SyntaxTree plain = SyntaxTree::parse("def f():\n    return a, *b\n");
  CHECK_FALSE(plain.first_error());
  CHECK(find_kind(plain.root(), "list_splat"));
  CHECK(parses("x = a *(b)\n"));
  CHECK(parses("def f(a, *, b):\n    return a, *(b)\n"));
  // Still errors: the workaround never hides a real mistake.
  CHECK_FALSE(parses("def f():\n    return a, *(b\n"));
  CHECK_FALSE(parses("x = a, *(b) +\n"));
  CHECK_FALSE(parses("def f(:\n    return a, *(b)\n"));
  // The comma ends the statement before: this star opens no tuple element.
  CHECK_FALSE(parses("x = a,\n*(b)\n"));
  // A real error after a rejected star is reported where it is, not at the star.
  std::string source = "x = a, *(b)\ny = (\n";
  SyntaxTree tree = SyntaxTree::parse(source);
  REQUIRE(tree.first_error());
  CHECK(tree.first_error()->start() >= source.find("y ="));
}

TEST_CASE("an incremental re-parse applies the same workaround") {
  std::string before = "def f():\n    return a, b\n";
  SyntaxTree tree = SyntaxTree::parse(before);
  std::string after = "def f():\n    return a, *(b)\n";
  uint32_t at = static_cast<uint32_t>(before.find("b\n"));
  tree.edit(before, {at, at + 1}, "*(b)");
  tree.reparse(after);
  CHECK_FALSE(tree.first_error());
  CHECK(tree.root().text() == after);
}
