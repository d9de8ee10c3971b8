// SPDX-License-Identifier: MIT
// The one pre-order walk over a syntax tree: a tree-sitter cursor, so no recursion (deep files
// stay safe) and no allocation per node. Inline because the linter's dispatch runs it on every
// node of every file.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

// Walks the subtree of `root` (root included) in pre-order, source order among siblings.
class TreeWalk {
 public:
  explicit TreeWalk(Node root) : cursor_(ts_tree_cursor_new(root.raw())), source_(root.source()) {}
  ~TreeWalk() { ts_tree_cursor_delete(&cursor_); }
  TreeWalk(const TreeWalk&) = delete;
  TreeWalk& operator=(const TreeWalk&) = delete;

  [[nodiscard]] Node node() const { return {ts_tree_cursor_current_node(&cursor_), source_}; }
  // Levels below the walk's root (the root is 0).
  [[nodiscard]] uint32_t depth() const { return depth_; }

  // Moves to the next node: the first child when `enter` and there is one, otherwise the next
  // sibling of the current node or of its nearest ancestor that has one. False when the subtree
  // is exhausted (the walk never leaves it).
  bool next(bool enter = true) {
    if (enter && ts_tree_cursor_goto_first_child(&cursor_)) {
      ++depth_;
      return true;
    }
    for (;;) {
      if (depth_ == 0) return false;
      if (ts_tree_cursor_goto_next_sibling(&cursor_)) return true;
      ts_tree_cursor_goto_parent(&cursor_);
      --depth_;
    }
  }

 private:
  TSTreeCursor cursor_;
  std::string_view source_;
  uint32_t depth_ = 0;
};

// What a for_each_node visitor wants after seeing a node.
enum class WalkStep : uint8_t {
  Enter,  // visit its children next
  Skip,   // leave its subtree out
  Stop,   // end the walk
};

// Calls `visit(node)` or `visit(node, depth)` for every node under `root` (root included) in
// pre-order. The visitor may return void (always enter) or a WalkStep. A template, not a
// std::function: the linter's dispatch is the hot loop.
template <typename Visit>
void for_each_node(Node root, Visit&& visit) {
  constexpr bool kWithDepth = std::is_invocable_v<Visit&, Node, uint32_t>;
  TreeWalk walk(root);
  for (;;) {
    WalkStep step = WalkStep::Enter;
    if constexpr (kWithDepth) {
      using Result = std::invoke_result_t<Visit&, Node, uint32_t>;
      if constexpr (std::is_void_v<Result>) {
        visit(walk.node(), walk.depth());
      } else {
        step = visit(walk.node(), walk.depth());
      }
    } else {
      using Result = std::invoke_result_t<Visit&, Node>;
      if constexpr (std::is_void_v<Result>) {
        visit(walk.node());
      } else {
        step = visit(walk.node());
      }
    }
    if (step == WalkStep::Stop || !walk.next(step == WalkStep::Enter)) return;
  }
}

// Calls `visit(child)` for each named child of `parent`, in order. Node::named_child(i) starts
// from the first child on every call, so a loop over it is quadratic in a module's or a long
// body's statements; past a few children one cursor pass is cheaper than its allocation.
template <typename Visit>
void for_each_named_child(Node parent, Visit&& visit) {
  constexpr uint32_t kFewChildren = 8;
  const uint32_t count = parent.named_child_count();
  if (count <= kFewChildren) {
    for (uint32_t i = 0; i < count; ++i) visit(parent.named_child(i));
    return;
  }
  TreeWalk walk(parent);
  for (bool more = walk.next(); more && walk.depth() == 1; more = walk.next(false)) {
    if (Node child = walk.node(); child.is_named()) visit(child);
  }
}

}  // namespace torchmigrate::python
