// SPDX-License-Identifier: MIT
// SyntaxTree::edit and reparse, what the language server does on each keystroke: whatever the
// edit marks as changed (it widens the mark to the code before it, see syntax_tree.cpp), the
// re-parsed tree must be the tree of a parse from scratch.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

using namespace torchmigrate;
using namespace torchmigrate::python;

namespace {

// Functions and classes with blank lines between them, where a deleted line changes the
// indentation scanner's state before the next definition.
std::string module_text() {
  std::string text = "import torch\n\n\n";
  for (int i = 0; i < 12; ++i) {
    std::string n = std::to_string(i);
    text += "class Block" + n + ":\n    def forward(self, x):\n        return x * " + n + "\n\n\n";
    text += "def build_" + n + "(width):\n    values = [v * 2 for v in range(width)]\n";
    text += "    if width:\n        return values  # kept\n    return -width\n\n\n";
  }
  return text;
}

std::vector<std::tuple<std::string, uint32_t, uint32_t>> shape(const SyntaxTree& tree) {
  std::vector<std::tuple<std::string, uint32_t, uint32_t>> nodes;
  for_each_node(tree.root(),
                [&](Node node) { nodes.emplace_back(std::string(node.kind()), node.start(), node.end()); });
  return nodes;
}

// Its tree borrows `text`: built in place, never copied or moved.
struct Document {
  explicit Document(std::string initial) : text(std::move(initial)), tree(SyntaxTree::parse(text)) {}
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  std::string text;
  SyntaxTree tree;

  void replace(uint32_t start, uint32_t end, const std::string& replacement) {
    tree.edit(text, {start, end}, replacement);
    text.replace(start, end - start, replacement);
    tree.reparse(text);
    CHECK(shape(tree) == shape(SyntaxTree::parse(text)));
  }
};

}  // namespace

TEST_CASE("a line typed and deleted between two definitions re-parses as from scratch") {
  Document document(module_text());
  for (size_t blank = document.text.find("\n\n"); blank != std::string::npos && blank < 2000;
       blank = document.text.find("\n\n", blank + 40)) {
    auto at = static_cast<uint32_t>(blank + 1);
    document.replace(at, at, "z");
    document.replace(at, at + 1, "");
    document.replace(at, at, "    y = 1\n");
    document.replace(at, at + 10, "");
  }
}

TEST_CASE("random typing re-parses as from scratch") {
  const std::vector<std::string> typed = {"z", " ", "\n", "#", "(", ")", ":", "\n\n", "    ", "*", "def f():\n"};
  Document document(module_text());
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    auto at = static_cast<uint32_t>(std::uniform_int_distribution<size_t>(0, document.text.size())(random));
    if (random() % 2 == 0) {
      document.replace(at, at, typed[random() % typed.size()]);
    } else {
      auto end = static_cast<uint32_t>(std::min(document.text.size(), size_t{at} + 1 + random() % 4));
      document.replace(at, end, "");
    }
  }
}

TEST_CASE("a parse does not depend on what was parsed before it") {
  // Reduced from random typing in a real file: with one tree-sitter parser kept per thread, a
  // parse from scratch after this incremental re-parse read the broken text differently from
  // the same parse in a new thread.
  const std::string before =
      "    for i in range(n):\n        blocked = block(scales)\n    \"\"\"\n    \"\"\"\n    \"\"\"\n    \"\"\"\n"
      "        raise RuntimeError(\n            f\"{name}: not supported yet.\"\n    )";
  const std::string typed = "strict=True,";
  const auto at = static_cast<uint32_t>(before.find("            f\"") + 3);
  std::string after = before;
  after.insert(at, typed);
  SyntaxTree tree = SyntaxTree::parse(before);
  tree.edit(before, {at, at}, typed);
  tree.reparse(after);
  auto fresh = shape(SyntaxTree::parse(after));
  decltype(fresh) in_new_thread;
  std::thread([&] { in_new_thread = shape(SyntaxTree::parse(after)); }).join();
  CHECK(fresh == in_new_thread);
}
