// SPDX-License-Identifier: MIT
#include "torchmigrate/python/compat_guards.hpp"

#include <array>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace torchmigrate::python {
namespace {

bool mentions(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

bool catches_missing_names(Node try_statement) {
  for (uint32_t i = 0; i < try_statement.named_child_count(); ++i) {
    Node clause = try_statement.named_child(i);
    if (clause.kind() != "except_clause") continue;
    Node value = clause.field("value");
    if (!value) {
      // tree-sitter-python 0.23 stores the caught type as the first named child.
      Node first = clause.named_child(0);
      if (first && first.kind() != "block") value = first;
    }
    // Only handlers for a missing name mark compatibility code; `except Exception` is ordinary
    // error handling and must not hide findings (TM203 lives there).
    if (value && mentions(value.text(), {"ImportError", "ModuleNotFoundError", "AttributeError"})) return true;
  }
  return false;
}

// `hasattr(x, ...)` / `getattr(x, ...)` somewhere in `condition` with `x` a torch module or
// object: `hasattr(model, "module")` or `getattr(args, "export", False)` is an ordinary test.
bool tests_torch_feature(Node condition, const SemanticModel& model) {
  if (condition.kind() == "call") {
    Node function = condition.field("function");
    if (function && function.kind() == "identifier" && (function.text() == "hasattr" || function.text() == "getattr")) {
      Node arguments = condition.field("arguments");
      Node object = arguments ? arguments.named_child(0) : Node();
      std::optional<std::string> name = object ? model.resolve(object) : std::nullopt;
      if (name && (*name == "torch" || name->starts_with("torch."))) return true;
    }
  }
  for (uint32_t i = 0; i < condition.named_child_count(); ++i) {
    if (tests_torch_feature(condition.named_child(i), model)) return true;
  }
  return false;
}

// A version literal of 2.8 or later in the text ("2.8", '2.10.0', (2, 8), 2.9): a comparison
// with an older version (`>= "2.1"`) says nothing about the 2.8 changes.
bool names_torch_28_or_later(std::string_view text) {
  static const std::regex version(R"((\d+)\s*[.,]\s*(\d+))");
  std::string owned(text);
  for (auto it = std::sregex_iterator(owned.begin(), owned.end(), version); it != std::sregex_iterator(); ++it) {
    int major = std::stoi((*it)[1].str());
    int minor = std::stoi((*it)[2].str());
    if (major > 2 || (major == 2 && minor >= 8)) return true;
  }
  return false;
}

bool is_version_test(Node condition) {
  return mentions(condition.text(), {"__version__", "version.parse", "Version(", "TorchVersion", "torch_version",
                                     "is_torch_greater", "TORCH_VERSION"}) &&
         names_torch_28_or_later(condition.text());
}

bool is_version_or_feature_test(Node condition, const SemanticModel& model, bool versions_only) {
  if (!condition) return false;
  if (!versions_only && mentions(condition.text(), {"hasattr(", "getattr("}) && tests_torch_feature(condition, model)) {
    return true;
  }
  return is_version_test(condition);
}

// `node`'s ancestors, outermost first, from one walk down the tree: ts_node_parent restarts
// from the root on every call, which made deeply nested expressions quadratic.
std::vector<Node> ancestors_of(Node node) {
  std::vector<Node> chain;
  TSNode root = ts_tree_root_node(node.raw().tree);
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode current = ts_tree_cursor_current_node(&cursor);
    if (ts_node_eq(current, node.raw())) break;
    chain.emplace_back(current, node.source());
    bool descended = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(child) <= node.start() && node.end() <= ts_node_end_byte(child) &&
            !(ts_node_start_byte(child) == ts_node_end_byte(child) && !ts_node_eq(child, node.raw()))) {
          descended = true;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    if (!descended) break;  // not found below: stop with what was collected
  }
  ts_tree_cursor_delete(&cursor);
  return chain;
}

bool mentions_marker(Node try_statement, const std::vector<std::string>* markers) {
  if (markers == nullptr || markers->empty()) return true;
  std::string_view text = try_statement.text();
  for (const std::string& marker : *markers) {
    if (text.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool is_compat_guarded(Node node, const SemanticModel& model, bool behaviour_change,
                       const std::vector<std::string>* try_markers) {
  std::vector<Node> chain = ancestors_of(node);
  Node child = node;
  for (auto it = chain.rbegin(); it != chain.rend(); child = *it, ++it) {
    Node parent = *it;
    std::string_view kind = parent.kind();
    // A changed default raises nothing, so only a version test can make code 2.8-aware.
    if (!behaviour_change && kind == "try_statement" && catches_missing_names(parent) &&
        mentions_marker(parent, try_markers)) {
      return true;
    }
    if (kind == "if_statement" || kind == "elif_clause" || kind == "while_statement") {
      Node condition = parent.field("condition");
      if (!(condition == child) && is_version_or_feature_test(condition, model, behaviour_change)) return true;
    }
    if (kind == "conditional_expression" && parent.named_child_count() == 3) {
      Node condition = parent.named_child(1);
      if (!(condition == child) && is_version_or_feature_test(condition, model, behaviour_change)) return true;
    }
    if (kind == "boolean_operator" && parent.field("right") == child &&
        is_version_or_feature_test(parent.field("left"), model, behaviour_change)) {
      return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::python
