// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/renamed_references.hpp"

#include <algorithm>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;

namespace {

bool is_callee(Node node) {
  Node parent = node.parent();
  return parent && parent.kind() == "call" && parent.field("function") == node;
}

}  // namespace

RenamedReferencesCheck::RenamedReferencesCheck(const engine::RuleSpec& rule, std::vector<RenameTarget> targets)
    : PythonCheck(rule), targets_(std::move(targets)) {}

std::vector<std::string_view> RenamedReferencesCheck::node_kinds() const {
  return {"import_from_statement", "identifier", "attribute", "call"};
}

void RenamedReferencesCheck::visit(Node node, PythonCheckContext& context) {
  std::string_view kind = node.kind();
  if (kind == "import_from_statement") {
    visit_import(node, context);
    return;
  }
  if (kind == "identifier" && !is_reference_identifier(node)) return;
  std::optional<std::string> qualified;
  if (kind == "call") {
    // `getattr(torch.export, "export_for_inference")` raises like the attribute access does.
    Node name = getattr_name(context.model(), node);
    if (!name) return;
    qualified = context.model().resolve(CallArguments(node).positional()[0]);
    if (qualified) qualified->append(".").append(*plain_string(name));
  } else {
    qualified = context.model().resolve(node);
  }
  if (!qualified) return;
  for (size_t i = 0; i < targets_.size(); ++i) {
    if (*qualified != targets_[i].qualified_name) continue;
    Reference reference{node, is_callee(node) ? node.parent() : Node{}, i, nullptr};
    if (kind == "identifier") {
      reference.binding = context.model().lookup(node.text(), node);
      // A name bound inside compatibility code (`except ImportError: from ... import old as new`)
      // is itself compatibility code.
      if (reference.binding != nullptr && python::is_compat_guarded(reference.binding->node, context.model())) return;
    }
    references_.push_back(reference);
    return;
  }
}

void RenamedReferencesCheck::visit_import(Node statement, PythonCheckContext& context) {
  Node module = statement.field("module_name");
  if (!module || module.kind() != "dotted_name") return;
  for (Node item : statement.children_of_field("name")) {
    std::string qualified = std::string(module.text()) + "." + std::string(ImportEditor::imported_name(item).text());
    for (size_t t = 0; t < targets_.size(); ++t) {
      if (qualified != targets_[t].qualified_name) continue;
      const python::Binding* binding =
          context.model().binding_created_by(ImportEditor::bound_name(item).text(), statement);
      imports_.push_back({item, t, binding});
    }
  }
}

std::optional<std::vector<Edit>> RenamedReferencesCheck::reference_edits(const Reference& reference,
                                                                           bool rename_identifier,
                                                                           PythonCheckContext& context) const {
  std::vector<Edit> edits;
  const std::string& new_name = targets_[reference.target].new_name;
  if (rename_identifier) {
    std::string_view kind = reference.node.kind();
    if (kind == "call") {
      edits.push_back(replace_string_content(getattr_name(context.model(), reference.node), new_name));
    } else {
      Node name = kind == "attribute" ? reference.node.field("attribute") : reference.node;
      edits.push_back(Edit::replace(name.range(), new_name));
    }
  }
  uint32_t line = context.file().location(reference.node.start()).line;
  if (reference.call) {
    std::optional<std::vector<Edit>> call_edits = rewrite_call(reference.call, reference.target, context);
    if (!call_edits) {
      CallArguments arguments(reference.call);
      no_fix_reason_ = arguments.has_star_args() || arguments.has_star_kwargs()
                           ? "the call on line " + std::to_string(line) +
                                 " passes `*args` or `**kwargs`, which may carry the arguments the rewrite moves"
                           : "the call on line " + std::to_string(line) + " has arguments the rewrite cannot map";
      return std::nullopt;
    }
    edits.insert(edits.end(), call_edits->begin(), call_edits->end());
  } else if (!value_rename_keeps_behaviour(reference.target)) {
    no_fix_reason_ = "line " + std::to_string(line) + " uses the function as a value rather than calling it";
    return std::nullopt;
  }
  return edits;
}

void RenamedReferencesCheck::report(const Reference& reference, const std::optional<std::vector<Edit>>& edits,
                                    PythonCheckContext& context) const {
  const RenameTarget& target = targets_[reference.target];
  Node where = reference.call ? reference.call : reference.node;
  Diagnostic& diagnostic =
      context.report(rule(), where.range(),
                     {{"name", target.qualified_name},
                      {"new", target.suggestion.empty() ? target.new_name : target.suggestion}});
  if (!rule().fix_applicability) return;
  if (!edits) {
    // Say why, so nobody waits for a fix that will not come.
    if (!no_fix_reason_.empty()) diagnostic.message += "; no fix is offered because " + no_fix_reason_;
    return;
  }
  Fix fix;
  fix.title = "Replace with `" + target.new_name + "`";
  fix.edits = *edits;
  fix.applicability = *rule().fix_applicability;
  fix.compat = rule().fix_compat;
  diagnostic.fixes.push_back(std::move(fix));
}

std::optional<std::vector<Edit>> RenamedReferencesCheck::group_edits(std::vector<Edit> anchor, bool rename_members,
                                                                       const std::vector<const Reference*>& members,
                                                                       PythonCheckContext& context) const {
  std::optional<std::vector<Edit>> group = std::move(anchor);
  for (const Reference* member : members) {
    std::optional<std::vector<Edit>> edits = reference_edits(*member, rename_members, context);
    if (!edits) return std::nullopt;
    group->insert(group->end(), edits->begin(), edits->end());
  }
  return group;
}

std::vector<const RenamedReferencesCheck::Reference*> RenamedReferencesCheck::members_of(
    const python::Binding* binding) const {
  std::vector<const Reference*> members;
  for (const Reference& reference : references_) {
    if (binding != nullptr && reference.binding == binding) members.push_back(&reference);
  }
  return members;
}

void RenamedReferencesCheck::finish(PythonCheckContext& context) {
  std::vector<const Reference*> handled;
  auto is_handled = [&](const Reference* reference) {
    return std::find(handled.begin(), handled.end(), reference) != handled.end();
  };

  // A from-import is renamed together with every use of the name it binds, or not at all.
  // One finding per import statement, however many removed names it imports.
  std::vector<std::pair<Node, std::optional<std::vector<Edit>>>> statements;
  for (const ImportItem& item : imports_) {
    std::vector<const Reference*> members = members_of(item.binding);
    std::vector<Node> uses;
    for (const Reference* member : members) uses.push_back(member->node);
    python::ImportChange change =
        ImportEditor(context.model()).rename_name(item.item, targets_[item.target].new_name, uses);
    std::optional<std::vector<Edit>> group;
    if (change) {
      bool aliased = item.item.kind() == "aliased_import";
      group = group_edits(std::move(change.edits), !aliased, members, context);
    } else {
      no_fix_reason_ = change.conflict;
    }
    for (const Reference* member : members) report(*member, group, context);
    handled.insert(handled.end(), members.begin(), members.end());
    Node statement = item.item.parent();
    auto it = std::find_if(statements.begin(), statements.end(), [&](const auto& entry) { return entry.first == statement; });
    if (it == statements.end()) {
      statements.emplace_back(statement, group);
    } else if (!it->second || !group) {
      it->second.reset();
    } else {
      it->second->insert(it->second->end(), group->begin(), group->end());
    }
  }
  for (const auto& [statement, edits] : statements) {
    size_t target = 0;
    for (const ImportItem& item : imports_) {
      if (item.item.parent() == statement) target = item.target;
    }
    report({statement, Node{}, target, nullptr}, edits, context);
  }

  // `f = torch.export.export_for_inference`: the assignment is renamed with every call of `f`.
  for (const Reference& reference : references_) {
    Node assignment = reference.node.parent();
    if (reference.node.kind() != "attribute" || !assignment || assignment.kind() != "assignment" ||
        !(assignment.field("right") == reference.node) || assignment.field("left").kind() != "identifier") {
      continue;
    }
    const python::Binding* alias =
        context.model().binding_created_by(assignment.field("left").text(), assignment);
    if (alias == nullptr || alias->kind != python::BindingKind::Alias) continue;
    std::vector<const Reference*> members = members_of(alias);
    Node name = reference.node.field("attribute");
    std::optional<std::vector<Edit>> group =
        group_edits({Edit::replace(name.range(), targets_[reference.target].new_name)}, false, members, context);
    report(reference, group, context);
    for (const Reference* member : members) report(*member, group, context);
    handled.push_back(&reference);
    handled.insert(handled.end(), members.begin(), members.end());
  }

  for (const Reference& reference : references_) {
    if (is_handled(&reference)) continue;
    // Attribute chains and getattr calls are fixed one by one; other names bound by assignment
    // are reported unfixed.
    bool fixable = reference.node.kind() == "attribute" || reference.node.kind() == "call";
    if (!fixable) no_fix_reason_ = "the name is bound by an assignment the fix cannot follow";
    report(reference, fixable ? reference_edits(reference, true, context) : std::nullopt, context);
  }
}

}  // namespace torchmigrate::checks
