// SPDX-License-Identifier: MIT
// python::for_each_node and TreeWalk, the pre-order walk the linter's dispatch, the depth check
// and the guard collection share, and the node queries the engine uses instead of tree-sitter.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "torchmigrate/python/focus.hpp"
#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

using namespace torchmigrate::python;

namespace {

const std::string kSource =
    "import torch\n"
    "# a comment\n"
    "def f(x, *rest):\n"
    "    if x:\n"
    "        return torch.cuda.amp.autocast(x)  # trailing\n"
    "    return [y for y in rest]\n"
    "class C(object):\n"
    "    s = '''multi\n"
    "line'''\n";

// (kind, start, depth) of every node in pre-order, from plain recursion over Node::child.
void reference(Node node, uint32_t depth, std::vector<std::tuple<std::string, uint32_t, uint32_t>>& out) {
  out.emplace_back(std::string(node.kind()), node.start(), depth);
  for (uint32_t i = 0; i < node.child_count(); ++i) reference(node.child(i), depth + 1, out);
}

Node first_of_kind(Node root, std::string_view kind) {
  Node found;
  for_each_node(root, [&](Node node) {
    if (node.kind() != kind) return WalkStep::Enter;
    found = node;
    return WalkStep::Stop;
  });
  return found;
}

}  // namespace

TEST_CASE("for_each_node visits every node in pre-order with its depth") {
  SyntaxTree tree = SyntaxTree::parse(kSource);
  std::vector<std::tuple<std::string, uint32_t, uint32_t>> expected;
  reference(tree.root(), 0, expected);
  std::vector<std::tuple<std::string, uint32_t, uint32_t>> walked;
  for_each_node(tree.root(),
                [&](Node node, uint32_t depth) { walked.emplace_back(std::string(node.kind()), node.start(), depth); });
  CHECK(walked == expected);

  size_t count = 0;
  for_each_node(tree.root(), [&](Node) { ++count; });
  CHECK(count == expected.size());
}

TEST_CASE("a skipped subtree is left out and the walk goes on after it") {
  SyntaxTree tree = SyntaxTree::parse(kSource);
  std::vector<std::string> kinds;
  for_each_node(tree.root(), [&](Node node) {
    kinds.emplace_back(node.kind());
    return node.kind() == "function_definition" ? WalkStep::Skip : WalkStep::Enter;
  });
  CHECK(std::find(kinds.begin(), kinds.end(), "function_definition") != kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "return_statement") == kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "class_definition") != kinds.end());
}

TEST_CASE("Stop ends the walk at once") {
  SyntaxTree tree = SyntaxTree::parse(kSource);
  std::vector<std::string> kinds;
  for_each_node(tree.root(), [&](Node node) {
    kinds.emplace_back(node.kind());
    return node.kind() == "comment" ? WalkStep::Stop : WalkStep::Enter;
  });
  REQUIRE_FALSE(kinds.empty());
  CHECK(kinds.back() == "comment");
  CHECK(std::count(kinds.begin(), kinds.end(), "comment") == 1);
}

TEST_CASE("a walk from an inner node stays in its subtree, depths counted from it") {
  SyntaxTree tree = SyntaxTree::parse(kSource);
  Node body = first_of_kind(tree.root(), "if_statement");
  REQUIRE(body);
  std::vector<std::tuple<std::string, uint32_t, uint32_t>> expected;
  reference(body, 0, expected);
  std::vector<std::tuple<std::string, uint32_t, uint32_t>> walked;
  for_each_node(body, [&](Node node, uint32_t depth) {
    CHECK(node.start() >= body.start());
    CHECK(node.end() <= body.end());
    walked.emplace_back(std::string(node.kind()), node.start(), depth);
  });
  CHECK(walked == expected);

  Node leaf = first_of_kind(tree.root(), "comment");
  size_t count = 0;
  for_each_node(leaf, [&](Node) { ++count; });
  CHECK(count == 1);
}

TEST_CASE("TreeWalk steps by hand, entering or not") {
  SyntaxTree tree = SyntaxTree::parse("a = 1\nb = 2\n");
  TreeWalk walk(tree.root());
  CHECK(walk.node().kind() == "module");
  CHECK(walk.depth() == 0);
  REQUIRE(walk.next());
  CHECK(walk.node().kind() == "expression_statement");
  CHECK(walk.node().text() == "a = 1");
  CHECK(walk.depth() == 1);
  REQUIRE(walk.next(false));  // the next statement, not `a = 1`'s children
  CHECK(walk.node().text() == "b = 2");
  REQUIRE(walk.next());
  CHECK(walk.node().kind() == "assignment");
  CHECK(walk.node().text() == "b = 2");
  CHECK(walk.depth() == 2);
  CHECK_FALSE(walk.next(false));  // no sibling here nor above: done
}

TEST_CASE("the walk neither recurses nor leaks on deep nesting or a throwing visitor") {
  constexpr size_t kLevels = 20000;
  std::string text = std::string(kLevels, '-') + "x\n";
  SyntaxTree tree = SyntaxTree::parse(text);
  uint32_t deepest = 0;
  for_each_node(tree.root(), [&](Node, uint32_t depth) { deepest = std::max(deepest, depth); });
  CHECK(deepest > kLevels);
  CHECK(tree.too_deep());

  size_t seen = 0;
  CHECK_THROWS_AS(for_each_node(tree.root(),
                                [&](Node) {
                                  if (++seen == 100) throw std::runtime_error("cancelled");
                                }),
                  std::runtime_error);
  CHECK(seen == 100);
}

TEST_CASE("descendant_for_range finds the smallest node spanning the bytes") {
  SyntaxTree tree = SyntaxTree::parse(kSource);
  size_t line_end = kSource.find("multi") + 5;  // the end of `s = '''multi`
  Node inside = tree.root().descendant_for_range(static_cast<uint32_t>(line_end - 1), static_cast<uint32_t>(line_end));
  bool in_string = false;
  for (Node node = inside; node; node = node.parent()) in_string = in_string || node.kind() == "string";
  CHECK(in_string);
  size_t name = kSource.find("autocast");
  Node identifier = tree.root().descendant_for_range(static_cast<uint32_t>(name), static_cast<uint32_t>(name + 8));
  CHECK(identifier.kind() == "identifier");
  CHECK(identifier.text() == "autocast");
}

TEST_CASE("syntax_error_count counts ERROR and MISSING nodes") {
  CHECK(SyntaxTree::parse(kSource).syntax_error_count() == 0);
  CHECK(SyntaxTree::parse("").syntax_error_count() == 0);
  for (const char* text : {"def f(:\n    pass\n", "x = (1,\n", "x = 1 +\ny = [\n", "if x\n    pass\n", "a b c\n"}) {
    SyntaxTree tree = SyntaxTree::parse(text);
    INFO(text);
    // The same count by plain recursion over every node.
    size_t expected = 0;
    std::vector<Node> stack{tree.root()};
    while (!stack.empty()) {
      Node node = stack.back();
      stack.pop_back();
      if (node.is_missing() || node.kind() == "ERROR") ++expected;
      if (node.is_missing()) continue;
      for (uint32_t i = 0; i < node.child_count(); ++i) stack.push_back(node.child(i));
    }
    CHECK(expected > 0);
    CHECK(tree.syntax_error_count() == expected);
    CHECK(tree.first_error().has_value());
  }
}

TEST_CASE("for_each_named_child visits what named_child(i) returns, in order") {
  std::string source;
  for (int i = 0; i < 20; ++i) {
    source += 'x';
    source += std::to_string(i);
    source += " = f(a, b, *c, **d)  # note\n";
  }
  source += "class C(A, B, metaclass=M):\n    pass\n";
  SyntaxTree tree = SyntaxTree::parse(source);
  std::vector<Node> parents;
  for_each_node(tree.root(), [&](Node node) { parents.push_back(node); });
  size_t wide = 0;
  for (Node parent : parents) {
    std::vector<Node> expected;
    for (uint32_t i = 0; i < parent.named_child_count(); ++i) expected.push_back(parent.named_child(i));
    std::vector<Node> visited;
    for_each_named_child(parent, [&](Node child) { visited.push_back(child); });
    INFO(parent.kind());
    CHECK(visited == expected);
    if (expected.size() > 8) ++wide;  // the cursor path, not only the indexed one
  }
  CHECK(wide >= 1);
}

TEST_CASE("A focus reads only the bodies that reach into its statements") {
  Focus focus({{40, 60}, {0, 10}, {25, 25}});
  CHECK(focus.ranges().size() == 2);  // the empty range reads nothing
  CHECK(focus.overlaps(0, 5));
  CHECK(focus.overlaps(5, 45));
  CHECK(focus.overlaps(59, 70));
  CHECK_FALSE(focus.overlaps(10, 40));
  CHECK_FALSE(focus.overlaps(20, 30));
  CHECK_FALSE(focus.overlaps(60, 90));
  CHECK_FALSE(Focus({}).overlaps(0, 100));
}
