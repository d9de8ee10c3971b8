// SPDX-License-Identifier: MIT
// Move-only RAII owners for the tree-sitter parser and tree, and a small value type for nodes.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "torchmigrate/core/text_range.hpp"
#include "torchmigrate/python/statement_slice.hpp"

namespace torchmigrate::python {

// A TSNode is a plain value that borrows from its tree; Node adds the source text so
// checks can read identifiers without passing the buffer around.
class Node {
 public:
  Node() = default;
  Node(TSNode node, std::string_view source) : node_(node), source_(source) {}

  [[nodiscard]] bool valid() const { return !ts_node_is_null(node_); }
  explicit operator bool() const { return valid(); }
  [[nodiscard]] std::string_view kind() const { return ts_node_type(node_); }
  [[nodiscard]] TSSymbol symbol() const { return ts_node_symbol(node_); }
  [[nodiscard]] bool is_named() const { return ts_node_is_named(node_); }
  [[nodiscard]] bool is_missing() const { return ts_node_is_missing(node_); }
  [[nodiscard]] bool has_error() const { return ts_node_has_error(node_); }
  [[nodiscard]] TextRange range() const { return {ts_node_start_byte(node_), ts_node_end_byte(node_)}; }
  [[nodiscard]] uint32_t start() const { return ts_node_start_byte(node_); }
  [[nodiscard]] uint32_t end() const { return ts_node_end_byte(node_); }
  [[nodiscard]] std::string_view text() const { return source_.substr(start(), end() - start()); }

  [[nodiscard]] Node field(std::string_view name) const {
    return wrap(ts_node_child_by_field_name(node_, name.data(), static_cast<uint32_t>(name.size())));
  }
  [[nodiscard]] uint32_t child_count() const { return ts_node_child_count(node_); }
  [[nodiscard]] Node child(uint32_t i) const { return wrap(ts_node_child(node_, i)); }
  [[nodiscard]] uint32_t named_child_count() const { return ts_node_named_child_count(node_); }
  [[nodiscard]] Node named_child(uint32_t i) const { return wrap(ts_node_named_child(node_, i)); }
  [[nodiscard]] Node parent() const { return wrap(ts_node_parent(node_)); }
  [[nodiscard]] Node next_named_sibling() const { return wrap(ts_node_next_named_sibling(node_)); }
  [[nodiscard]] Node prev_sibling() const { return wrap(ts_node_prev_sibling(node_)); }
  [[nodiscard]] Node next_sibling() const { return wrap(ts_node_next_sibling(node_)); }
  // The smallest node of this subtree that spans the bytes [start, end).
  [[nodiscard]] Node descendant_for_range(uint32_t start, uint32_t end) const {
    return wrap(ts_node_descendant_for_byte_range(node_, start, end));
  }
  // Every child stored under a field that may repeat (`name` of an import statement).
  [[nodiscard]] std::vector<Node> children_of_field(std::string_view field) const;
  // Public for the python layer's own sources and for tests that print a tree; other layers
  // cannot use the TSNode it returns (tests/layers/check_layers.py rejects the tree-sitter API
  // outside this layer), so they walk with python/tree_walk.hpp instead.
  [[nodiscard]] TSNode raw() const { return node_; }
  [[nodiscard]] std::string_view source() const { return source_; }
  bool operator==(const Node& other) const { return ts_node_eq(node_, other.node_); }

 private:
  [[nodiscard]] Node wrap(TSNode node) const { return {node, source_}; }
  TSNode node_{};
  std::string_view source_;
};

class SyntaxTree {
 public:
  // Parses Python source; never fails on bad syntax (tree-sitter recovers with ERROR nodes).
  static SyntaxTree parse(std::string_view source);
  // Parses only the spans of `source` (whole lines, in order, as statement_slice.hpp chooses
  // them); nodes keep their offsets in the whole text.
  static SyntaxTree parse_spans(std::string_view source, const std::vector<SliceSpan>& spans);

  [[nodiscard]] Node root() const { return {ts_tree_root_node(tree_.get()), source_}; }
  [[nodiscard]] std::string_view source() const { return source_; }
  // The first ERROR or MISSING node, if the parse had to recover.
  [[nodiscard]] std::optional<Node> first_error() const;
  // How many ERROR and MISSING nodes the parse has (nodes inside a MISSING one are not counted).
  [[nodiscard]] size_t syntax_error_count() const;
  // True when nodes nest deeper than kMaxDepth. The semantic model and several checks recurse
  // over the tree, so such a file would overflow the stack; CPython itself refuses far
  // shallower nesting ("too many nested parentheses", RecursionError during compilation).
  static constexpr uint32_t kMaxDepth = 3000;
  [[nodiscard]] bool too_deep() const;

  // Incremental re-parsing (for editors): record each edit of the text with `edit`, then call
  // `reparse` once with the new text; unchanged subtrees of the old tree are reused.
  // `before` is the whole text just before this edit; `replaced` is a byte range of it.
  void edit(std::string_view before, TextRange replaced, std::string_view replacement);
  // Parses `source` reusing this (edited) tree; the tree then borrows `source`.
  void reparse(std::string_view source);

 private:
  struct TreeDeleter {
    void operator()(TSTree* tree) const { ts_tree_delete(tree); }
  };
  SyntaxTree(TSTree* tree, std::string_view source) : tree_(tree), source_(source) {}
  std::unique_ptr<TSTree, TreeDeleter> tree_;
  std::string_view source_;
};

// Node kinds as dense ids. Several grammar symbols can share one kind name (aliases), so
// dispatch tables use the canonical id of the name, never the raw symbol.
using KindId = uint16_t;
KindId python_kind_id(std::string_view kind);  // throws for a name the grammar lacks
KindId python_kind_id(TSSymbol symbol);
uint32_t python_kind_count();

}  // namespace torchmigrate::python
