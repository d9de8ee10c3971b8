// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/renamed_references.hpp"

namespace torchmigrate::checks {

using engine::PythonCheckContext;
using python::Node;

namespace {

bool is_callee(Node node) {
  Node parent = node.parent();
  return parent && parent.kind() == "call" && parent.field("function") == node;
}

// Identifiers that name something rather than refer to it: `x.attr`, `f(kw=...)`, imports.
bool is_reference_position(Node identifier) {
  Node parent = identifier.parent();
  if (!parent) return true;
  std::string_view kind = parent.kind();
  if (kind == "dotted_name" || kind == "aliased_import") return false;
  if (kind == "attribute" && parent.field("attribute") == identifier) return false;
  if (kind == "keyword_argument" && parent.field("name") == identifier) return false;
  return true;
}

}  // namespace

RenamedReferencesCheck::RenamedReferencesCheck(const engine::RuleSpec& rule, std::vector<RenameTarget> targets)
    : PythonCheck(rule), targets_(std::move(targets)) {}

std::vector<std::string_view> RenamedReferencesCheck::node_kinds() const {
  return {"import_from_statement", "identifier", "attribute"};
}

void RenamedReferencesCheck::visit(Node node, PythonCheckContext& context) {
  std::string_view kind = node.kind();
  if (kind == "import_from_statement") {
    visit_import(node, context);
    return;
  }
  if (kind == "identifier" && !is_reference_position(node)) return;
  std::optional<std::string> qualified = context.model().resolve(node);
  if (!qualified) return;
  for (size_t i = 0; i < targets_.size(); ++i) {
    if (*qualified != targets_[i].qualified_name) continue;
    Reference reference{node, is_callee(node) ? node.parent() : Node{}, i, nullptr};
    if (kind == "identifier") reference.binding = context.model().lookup(node.text(), node);
    references_.push_back(reference);
    return;
  }
}

void RenamedReferencesCheck::visit_import(Node statement, PythonCheckContext& context) {
  Node module = statement.field("module_name");
  if (!module || module.kind() != "dotted_name") return;
  for (Node item : statement.children_of_field("name")) {
    Node name = item.kind() == "aliased_import" ? item.field("name") : item;
    Node bound = item.kind() == "aliased_import" ? item.field("alias") : item;
    std::string qualified = std::string(module.text()) + "." + std::string(name.text());
    for (size_t t = 0; t < targets_.size(); ++t) {
      if (qualified != targets_[t].qualified_name) continue;
      imports_.push_back({item, name, t, context.model().binding_created_by(bound.text(), statement)});
    }
  }
}

std::optional<std::vector<Edit>> RenamedReferencesCheck::reference_edits(const Reference& reference,
                                                                           bool rename_identifier,
                                                                           PythonCheckContext& context) const {
  std::vector<Edit> edits;
  const std::string& new_name = targets_[reference.target].new_name;
  if (rename_identifier) {
    Node name = reference.node.kind() == "attribute" ? reference.node.field("attribute") : reference.node;
    edits.push_back(Edit::replace(name.range(), new_name));
  }
  if (reference.call) {
    std::optional<std::vector<Edit>> call_edits = rewrite_call(reference.call, reference.target, context);
    if (!call_edits) return std::nullopt;
    edits.insert(edits.end(), call_edits->begin(), call_edits->end());
  } else if (!value_rename_keeps_behaviour(reference.target)) {
    return std::nullopt;
  }
  return edits;
}

void RenamedReferencesCheck::report(const Reference& reference, const std::optional<std::vector<Edit>>& edits,
                                    PythonCheckContext& context) const {
  const RenameTarget& target = targets_[reference.target];
  Node where = reference.call ? reference.call : reference.node;
  Diagnostic& diagnostic =
      context.report(rule(), where.range(), {{"name", target.qualified_name}, {"new", target.new_name}});
  if (!edits || !rule().fix_applicability) return;
  Fix fix;
  fix.title = "Replace with `" + target.new_name + "`";
  fix.edits = *edits;
  fix.applicability = *rule().fix_applicability;
  fix.compat = rule().fix_compat;
  diagnostic.fixes.push_back(std::move(fix));
}

void RenamedReferencesCheck::finish(PythonCheckContext& context) {
  // References through a from-import are fixed as one group with the import itself.
  for (const ImportItem& item : imports_) {
    bool aliased = item.item.kind() == "aliased_import";
    std::optional<std::vector<Edit>> group =
        std::vector<Edit>{Edit::replace(item.name.range(), targets_[item.target].new_name)};
    std::vector<const Reference*> members;
    for (const Reference& reference : references_) {
      if (item.binding == nullptr || reference.binding != item.binding) continue;
      members.push_back(&reference);
      std::optional<std::vector<Edit>> edits = reference_edits(reference, !aliased, context);
      if (!edits) {
        group.reset();
      } else if (group) {
        group->insert(group->end(), edits->begin(), edits->end());
      }
    }
    report({item.item, Node{}, item.target, nullptr}, group, context);
    for (const Reference* member : members) report(*member, group, context);
  }
  for (const Reference& reference : references_) {
    if (reference.binding != nullptr && reference.binding->kind == python::BindingKind::Import) {
      bool grouped = false;
      for (const ImportItem& item : imports_) grouped = grouped || item.binding == reference.binding;
      if (grouped) continue;
    }
    // Attribute chains are fixed one by one; a name bound by assignment is reported unfixed.
    bool fixable = reference.node.kind() == "attribute";
    report(reference, fixable ? reference_edits(reference, true, context) : std::nullopt, context);
  }
}

}  // namespace torchmigrate::checks
