// SPDX-License-Identifier: MIT
#include "torchmigrate/python/compat_guards.hpp"

#include <array>
#include <optional>
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

bool is_version_or_feature_test(Node condition, const SemanticModel& model) {
  if (!condition) return false;
  if (mentions(condition.text(), {"hasattr(", "getattr("}) && tests_torch_feature(condition, model)) return true;
  return mentions(condition.text(), {"__version__", "version.parse", "Version(", "TorchVersion", "torch_version",
                                     "is_torch_greater", "TORCH_VERSION"});
}

}  // namespace

bool is_compat_guarded(Node node, const SemanticModel& model) {
  for (Node child = node, parent = node.parent(); parent; child = parent, parent = parent.parent()) {
    std::string_view kind = parent.kind();
    if (kind == "try_statement" && catches_missing_names(parent)) return true;
    if (kind == "if_statement" || kind == "elif_clause" || kind == "while_statement") {
      Node condition = parent.field("condition");
      if (!(condition == child) && is_version_or_feature_test(condition, model)) return true;
    }
    if (kind == "conditional_expression" && parent.named_child_count() == 3) {
      Node condition = parent.named_child(1);
      if (!(condition == child) && is_version_or_feature_test(condition, model)) return true;
    }
    if (kind == "boolean_operator" && parent.field("right") == child &&
        is_version_or_feature_test(parent.field("left"), model)) {
      return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::python
