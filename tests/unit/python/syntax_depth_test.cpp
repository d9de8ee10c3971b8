// SPDX-License-Identifier: MIT
// SyntaxTree::too_deep skips subtrees too small to reach the limit; it must agree with a full
// measurement of the tree's height for every construct that nests, just below and just above
// the limit.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "torchmigrate/python/syntax_tree.hpp"

using torchmigrate::python::Node;
using torchmigrate::python::SyntaxTree;

namespace {

// The number of edges on the longest root-to-leaf path, without recursion. An explicit stack,
// not python::for_each_node, which too_deep itself uses.
uint32_t height(const SyntaxTree& tree) {
  std::vector<std::pair<Node, uint32_t>> stack{{tree.root(), 0}};
  uint32_t deepest = 0;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    for (uint32_t i = 0; i < node.child_count(); ++i) stack.emplace_back(node.child(i), depth + 1);
  }
  return deepest;
}

std::string repeat(const std::string& part, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i) out += part;
  return out;
}

// Appends in place: `"a" + std::string` trips a false -Wrestrict in GCC 12.
std::string join(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& part : parts) out += part;
  return out;
}

std::string nested_ifs(size_t levels) {
  std::string out;
  for (size_t i = 0; i < levels; ++i) out += std::string(i, ' ') + "if x:\n";
  return out + std::string(levels, ' ') + "pass\n";
}

}  // namespace

TEST_CASE("too_deep agrees with the tree's height around the limit") {
  constexpr size_t kLimit = SyntaxTree::kMaxDepth;
  // Constructs that nest with the fewest bytes per level, and error recovery of unclosed ones.
  std::vector<std::string (*)(size_t)> shapes = {
      [](size_t n) { return join({repeat("-", n), "x\n"}); },
      [](size_t n) { return join({repeat("(", n), "x", repeat(")", n), "\n"}); },
      [](size_t n) { return join({repeat("(", n), "\n"}); },
      [](size_t n) { return join({"f", repeat("()", n), "\n"}); },
      [](size_t n) { return join({"a", repeat(".b", n), "\n"}); },
      [](size_t n) { return join({repeat("[", n), repeat("]", n), "\n"}); },
      [](size_t n) { return join({repeat("not ", n), "x\n"}); },
      [](size_t n) { return join({"1", repeat("+1", n), "\n"}); },
      [](size_t n) { return join({repeat("lambda:", n), "x\n"}); },
      [](size_t n) { return join({repeat("x[", n), "\n"}); },
      [](size_t n) { return nested_ifs(n / 4); },
  };
  for (auto shape : shapes) {
    for (size_t n : {kLimit / 4, kLimit / 2 - 3, kLimit / 2, kLimit - 20, kLimit - 1, kLimit, kLimit + 1, kLimit + 40}) {
      std::string text = shape(n);
      SyntaxTree tree = SyntaxTree::parse(text);
      INFO(text.substr(0, 40) << " (" << text.size() << " bytes)");
      CHECK(tree.too_deep() == (height(tree) > kLimit));
    }
  }
}
