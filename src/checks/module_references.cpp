// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/module_references.hpp"

#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {

using python::ImportEditor;
using python::Node;

bool is_under(std::string_view qualified, std::string_view prefix) {
  if (!qualified.starts_with(prefix)) return false;
  return qualified.size() == prefix.size() || qualified[prefix.size()] == '.';
}

namespace {

bool under_any(std::string_view qualified, const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes) {
    if (is_under(qualified, prefix)) return true;
  }
  return false;
}

}  // namespace

std::vector<ImportedName> imports_under(Node statement, const std::vector<std::string>& prefixes) {
  std::vector<ImportedName> found;
  if (statement.kind() == "import_statement") {
    for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
      Node item = statement.named_child(i);
      Node name = ImportEditor::imported_name(item);
      if (!name || name.kind() != "dotted_name") continue;
      std::string qualified(name.text());
      if (under_any(qualified, prefixes)) found.push_back({item, qualified});
    }
    return found;
  }
  if (statement.kind() != "import_from_statement") return found;
  Node module = statement.field("module_name");
  if (!module || module.kind() != "dotted_name") return found;  // relative imports are the project's own
  std::string base(module.text());
  for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
    Node item = statement.named_child(i);
    if (item.kind() == "wildcard_import" && under_any(base, prefixes)) found.push_back({item, base});
  }
  for (Node item : statement.children_of_field("name")) {
    Node name = ImportEditor::imported_name(item);
    std::string qualified = base + "." + std::string(name.text());
    if (under_any(qualified, prefixes)) found.push_back({item, qualified});
  }
  return found;
}

bool is_outermost_attribute(Node attribute) { return is_outermost_attribute(attribute, attribute.parent()); }

bool is_outermost_attribute(Node attribute, Node parent) {
  return !(parent && parent.kind() == "attribute" && parent.field("object") == attribute);
}

bool is_reference_identifier(Node identifier) { return is_reference_identifier(identifier, identifier.parent()); }

bool is_reference_identifier(Node identifier, Node parent) {
  if (!parent) return true;
  std::string_view kind = parent.kind();
  if (kind == "dotted_name" || kind == "aliased_import") return false;
  if (kind == "attribute" && parent.field("attribute") == identifier) return false;
  if (kind == "keyword_argument" && parent.field("name") == identifier) return false;
  // The target of a plain assignment rebinds the name rather than reading it.
  if ((kind == "assignment" || kind == "augmented_assignment") && parent.field("left") == identifier) return false;
  if ((kind == "function_definition" || kind == "class_definition") && parent.field("name") == identifier) {
    return false;
  }
  return true;
}

}  // namespace torchmigrate::checks
