// SPDX-License-Identifier: MIT
// Family `renamed-callable`: a torch function renamed or replaced, with how its calls' arguments
// map onto the replacement (`python::CallMapping`). Finds every reference (from-import,
// attribute chain, imported name, alias, `getattr`) and fixes the import (through
// `python::ImportEditor`) together with all its uses, or none of them. When the old function
// still exists (`old_still_exists`), each call is switched on its own and the old import stays.
// Several entries with the same `from` are alternative spellings of one fix, preferred first,
// each with its own requirement: the run keeps the first that the project's torch range meets.
#include <algorithm>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/call_mapping.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;

bool is_callee(Node node) {
  Node parent = node.parent();
  return parent && parent.kind() == "call" && parent.field("function") == node;
}

struct Rename {
  std::string qualified_name;  // torch.export.export_for_inference
  std::string module;          // torch.export
  std::string new_name;        // export_for_training
  std::string suggestion;      // the message's `{new}`
  std::string title;           // the fix's title
  CallMapping call;
  FixRequirements requirements;  // the rule's `fix.requires`, or the entry's own
  size_t spelling = 0;           // its place among the entries with the same `from`
  bool display_only = false;     // a suggestion to review, never applied
};

// Edits, or why there are none.
using Rewrite = std::variant<std::vector<Edit>, std::string>;

class RenamedCallableCheck final : public engine::PythonCheck {
 public:
  explicit RenamedCallableCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const Params& entry : params.objects("renames")) {
      Rename rename;
      rename.qualified_name = entry.string("from");
      rename.module = rename.qualified_name.substr(0, rename.qualified_name.rfind('.'));
      rename.new_name = entry.string("to");
      rename.suggestion = entry.has("suggestion") ? entry.string("suggestion") : rename.new_name;
      rename.title = entry.has("title") ? entry.string("title") : "Replace with `" + rename.new_name + "`";
      if (entry.has("call")) rename.call = CallMapping(entry.object("call"), rename.new_name);
      rename.display_only = entry.boolean("display_only", false);
      rename.requirements = rule.fix_requirements;
      if (entry.has("requires")) {
        rename.requirements =
            engine::parse_fix_requirements(entry.json("requires"), rule.code + " `" + rename.qualified_name + "`");
      }
      for (const Rename& earlier : renames_) {
        if (earlier.qualified_name == rename.qualified_name) rename.spelling = earlier.spelling + 1;
      }
      spellings_ = std::max(spellings_, rename.spelling + 1);
      entry.finish();
      renames_.push_back(std::move(rename));
    }
    old_still_exists_ = params.boolean("old_still_exists", false);
    alias_when_taken_ = params.boolean("alias_when_taken", false);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"import_from_statement", "identifier", "attribute", "call"};
  }

  void visit(Node node, PythonCheckContext& context) override;
  void finish(PythonCheckContext& context) override;

 private:
  struct Reference {
    Node node;  // identifier, attribute, or a `getattr(...)` call
    Node call;  // the call when `node` is its callee
    size_t rename = 0;
    const python::Binding* binding = nullptr;  // for imported names
  };
  struct ImportItem {
    Node item;  // dotted_name or aliased_import inside the import statement
    size_t rename = 0;
    const python::Binding* binding = nullptr;
  };

  void visit_import(Node statement, PythonCheckContext& context);
  Rewrite reference_edits(const Reference& reference, const std::string* new_identifier,
                          PythonCheckContext& context) const;
  Rewrite group_edits(std::vector<Edit> anchor, const std::string* new_identifier,
                      const std::vector<const Reference*>& members, PythonCheckContext& context) const;
  Rewrite call_on_its_own(const Reference& reference, PythonCheckContext& context) const;
  [[nodiscard]] std::vector<const Reference*> members_of(const python::Binding* binding) const;
  // A reference's rewrites, one per spelling tried.
  struct Finding {
    Node where;
    size_t rename = 0;
    std::vector<std::pair<size_t, Rewrite>> rewrites;  // by entry of `renames_`
  };
  void report(const Reference& reference, const Rewrite& rewrite, PythonCheckContext& context);
  void emit(const Finding& finding, PythonCheckContext& context) const;
  [[nodiscard]] size_t current_entry(size_t rename) const;
  [[nodiscard]] const Rename& spelling(size_t rename) const;
  void finish_pass(PythonCheckContext& context);
  void finish_renaming_imports(PythonCheckContext& context, std::vector<const Reference*>& handled);

  std::vector<Rename> renames_;
  size_t spellings_ = 1;  // the most entries any `from` has
  size_t pass_ = 0;       // the spelling being written
  bool old_still_exists_ = false;
  // A from-import whose new name is taken in the file imports the new function under the old name.
  bool alias_when_taken_ = false;
  std::vector<Reference> references_;
  std::vector<ImportItem> imports_;
  std::vector<Finding> findings_;
};

void RenamedCallableCheck::visit(Node node, PythonCheckContext& context) {
  std::string_view kind = node.kind();
  if (kind == "import_from_statement") {
    if (!old_still_exists_) visit_import(node, context);
    return;
  }
  if (kind == "identifier" && !is_reference_identifier(node, context.parent())) return;
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
  for (size_t i = 0; i < renames_.size(); ++i) {
    if (*qualified != renames_[i].qualified_name || renames_[i].spelling != 0) continue;
    Reference reference{node, is_callee(node) ? node.parent() : Node{}, i, nullptr};
    // A function that still exists may be referenced; only calling it changed.
    if (old_still_exists_ && !reference.call) return;
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

void RenamedCallableCheck::visit_import(Node statement, PythonCheckContext& context) {
  Node module = statement.field("module_name");
  if (!module || module.kind() != "dotted_name") return;
  for (Node item : statement.children_of_field("name")) {
    std::string qualified = std::string(module.text()) + "." + std::string(ImportEditor::imported_name(item).text());
    for (size_t r = 0; r < renames_.size(); ++r) {
      if (qualified != renames_[r].qualified_name || renames_[r].spelling != 0) continue;
      const python::Binding* binding =
          context.model().binding_created_by(ImportEditor::bound_name(item).text(), statement);
      imports_.push_back({item, r, binding});
    }
  }
}

// The edits of one reference: its call's arguments and, unless `new_identifier` is null, the
// name itself (`getattr`'s string, an attribute's last part, or the identifier).
Rewrite RenamedCallableCheck::reference_edits(const Reference& reference, const std::string* new_identifier,
                                              PythonCheckContext& context) const {
  std::vector<Edit> edits;
  if (new_identifier != nullptr) {
    std::string_view kind = reference.node.kind();
    if (kind == "call") {
      edits.push_back(replace_string_content(getattr_name(context.model(), reference.node), *new_identifier));
    } else {
      Node name = kind == "attribute" ? reference.node.field("attribute") : reference.node;
      edits.push_back(Edit::replace(name.range(), *new_identifier));
    }
  }
  std::string line = std::to_string(context.file().location(reference.node.start()).line);
  const CallMapping& mapping = spelling(reference.rename).call;
  if (reference.call) {
    CallRewrite call = mapping.rewrite(reference.call);
    if (auto* reason = std::get_if<std::string>(&call)) return "the call on line " + line + " " + *reason;
    auto& call_edits = std::get<std::vector<Edit>>(call);
    edits.insert(edits.end(), call_edits.begin(), call_edits.end());
  } else if (!mapping.is_identity()) {
    return "line " + line + " uses the function as a value rather than calling it";
  }
  return edits;
}

Rewrite RenamedCallableCheck::group_edits(std::vector<Edit> anchor, const std::string* new_identifier,
                                          const std::vector<const Reference*>& members,
                                          PythonCheckContext& context) const {
  for (const Reference* member : members) {
    Rewrite edits = reference_edits(*member, new_identifier, context);
    if (std::holds_alternative<std::string>(edits)) return edits;
    auto& more = std::get<std::vector<Edit>>(edits);
    anchor.insert(anchor.end(), more.begin(), more.end());
  }
  return anchor;
}

// `from torch.export import *` bound the name (python/star_exports.hpp).
bool from_star_import(const python::Binding* binding) {
  if (binding == nullptr || binding->kind != python::BindingKind::Import) return false;
  for (uint32_t i = 0; i < binding->node.named_child_count(); ++i) {
    if (binding->node.named_child(i).kind() == "wildcard_import") return true;
  }
  return false;
}

// A call of a function that still exists: the new name is imported next to the old one (or an
// import of it reused), so calls that cannot switch keep working.
Rewrite RenamedCallableCheck::call_on_its_own(const Reference& reference, PythonCheckContext& context) const {
  const Rename& rename = spelling(reference.rename);
  if (reference.node.kind() != "identifier") return reference_edits(reference, &rename.new_name, context);
  const python::Binding* binding = reference.binding;
  if (binding == nullptr || binding->kind != python::BindingKind::Import ||
      binding->node.kind() != "import_from_statement") {
    return std::string("the name is bound by an assignment the fix cannot follow");
  }
  // Already imported from any module that provides the old function: reuse it.
  const python::Binding* existing = context.model().lookup(rename.new_name, reference.node);
  for (const Rename& other : renames_) {
    if (existing != nullptr && existing->kind != python::BindingKind::Local &&
        existing->qualified_name == other.module + "." + rename.new_name) {
      return reference_edits(reference, &rename.new_name, context);
    }
  }
  for (Node item : binding->node.children_of_field("name")) {
    if (ImportEditor::bound_name(item).text() != reference.node.text()) continue;
    std::string_view module = binding->node.field("module_name").text();
    python::ImportChange change =
        ImportEditor(context.model()).import_name(module, rename.new_name, reference.node, item);
    if (!change) return change.conflict;
    Rewrite uses = reference_edits(reference, &change.name, context);
    if (auto* edits = std::get_if<std::vector<Edit>>(&uses))
      change.edits.insert(change.edits.end(), edits->begin(), edits->end());
    else
      return uses;
    return std::move(change.edits);
  }
  return std::string("the import that binds the name was not found");
}

// Keeps what one pass found for a reference; `emit` reports them once every spelling is tried.
void RenamedCallableCheck::report(const Reference& reference, const Rewrite& rewrite, PythonCheckContext& /*context*/) {
  Node where = reference.call ? reference.call : reference.node;
  auto it = std::find_if(findings_.begin(), findings_.end(), [&](const Finding& finding) {
    return finding.where == where && finding.rename == reference.rename;
  });
  if (it == findings_.end()) it = findings_.insert(findings_.end(), Finding{where, reference.rename, {}});
  size_t entry = current_entry(reference.rename);
  for (const auto& recorded : it->rewrites) {
    if (recorded.first == entry) return;  // a `from` with fewer spellings than this pass
  }
  it->rewrites.emplace_back(entry, rewrite);
}

void RenamedCallableCheck::emit(const Finding& finding, PythonCheckContext& context) const {
  const Rename& rename = renames_[finding.rename];
  Diagnostic& diagnostic =
      context.report(rule(), finding.where.range(), {{"name", rename.qualified_name}, {"new", rename.suggestion}});
  if (!rule().fix_applicability) return;
  for (const auto& [entry, rewrite] : finding.rewrites) {
    const auto* edits = std::get_if<std::vector<Edit>>(&rewrite);
    if (edits == nullptr) continue;
    // Never the fallback: a rule without a fix in the catalog returned above, with no fix.
    Fix fix = rule_fix(rule(), renames_[entry].title, *edits, Applicability::DisplayOnly);
    fix.requirements = renames_[entry].requirements;
    if (renames_[entry].display_only) fix.applicability = Applicability::DisplayOnly;
    fix.alternative_spelling = spellings_ > 1;
    diagnostic.fixes.push_back(std::move(fix));
  }
  if (diagnostic.fixes.empty()) {
    // Say why, so nobody waits for a fix that will not come.
    diagnostic.message += "; no fix is offered because " + std::get<std::string>(finding.rewrites.front().second);
  }
}

// The entry of `rename`'s `from` that the current pass writes.
size_t RenamedCallableCheck::current_entry(size_t rename) const {
  for (size_t i = 0; i < renames_.size(); ++i) {
    if (renames_[i].qualified_name == renames_[rename].qualified_name && renames_[i].spelling == pass_) return i;
  }
  return rename;
}

const Rename& RenamedCallableCheck::spelling(size_t rename) const { return renames_[current_entry(rename)]; }

std::vector<const RenamedCallableCheck::Reference*> RenamedCallableCheck::members_of(
    const python::Binding* binding) const {
  std::vector<const Reference*> members;
  for (const Reference& reference : references_) {
    if (binding != nullptr && reference.binding == binding) members.push_back(&reference);
  }
  return members;
}

// A from-import is renamed together with every use of the name it binds, or not at all.
// One finding per import statement, however many renamed names it imports.
void RenamedCallableCheck::finish_renaming_imports(PythonCheckContext& context,
                                                   std::vector<const Reference*>& handled) {
  std::vector<std::pair<Node, Rewrite>> statements;
  for (const ImportItem& item : imports_) {
    std::vector<const Reference*> members = members_of(item.binding);
    std::vector<Node> uses;
    for (const Reference* member : members) uses.push_back(member->node);
    python::ImportChange change =
        ImportEditor(context.model()).rename_name(item.item, spelling(item.rename).new_name, uses);
    Rewrite group = change.conflict;
    bool aliased = item.item.kind() == "aliased_import";
    if (change) {
      // An alias keeps naming the function; otherwise the uses take the name the import binds.
      group = group_edits(std::move(change.edits), aliased ? nullptr : &change.name, members, context);
    } else if (alias_when_taken_ && !aliased) {
      // `from m import new as old`: binds the same name as before, so no use changes and
      // nothing else the file names is touched.
      std::string bound(ImportEditor::bound_name(item.item).text());
      group = group_edits({Edit::replace(item.item.range(), spelling(item.rename).new_name + " as " + bound)}, nullptr,
                          members, context);
    }
    for (const Reference* member : members) report(*member, group, context);
    handled.insert(handled.end(), members.begin(), members.end());
    Node statement = item.item.parent();
    auto it =
        std::find_if(statements.begin(), statements.end(), [&](const auto& entry) { return entry.first == statement; });
    if (it == statements.end()) {
      statements.emplace_back(statement, std::move(group));
    } else if (auto* edits = std::get_if<std::vector<Edit>>(&it->second)) {
      if (auto* more = std::get_if<std::vector<Edit>>(&group))
        edits->insert(edits->end(), more->begin(), more->end());
      else
        it->second = std::move(group);
    }
  }
  for (const auto& [statement, edits] : statements) {
    size_t rename = 0;
    for (const ImportItem& item : imports_) {
      if (item.item.parent() == statement) rename = item.rename;
    }
    report({statement, Node{}, rename, nullptr}, edits, context);
  }
}

void RenamedCallableCheck::finish(PythonCheckContext& context) {
  for (pass_ = 0; pass_ < spellings_; ++pass_) finish_pass(context);
  for (const Finding& finding : findings_) emit(finding, context);
}

// One spelling of every fix. A reference whose `from` has fewer spellings takes its last again,
// which only repeats what an earlier pass recorded.
void RenamedCallableCheck::finish_pass(PythonCheckContext& context) {
  std::vector<const Reference*> handled;
  auto is_handled = [&](const Reference* reference) {
    return std::find(handled.begin(), handled.end(), reference) != handled.end();
  };
  finish_renaming_imports(context, handled);

  // `f = torch.export.export_for_inference`: the assignment is renamed with every call of `f`.
  for (const Reference& reference : references_) {
    Node assignment = reference.node.parent();
    if (reference.node.kind() != "attribute" || !assignment || assignment.kind() != "assignment" ||
        !(assignment.field("right") == reference.node) || assignment.field("left").kind() != "identifier") {
      continue;
    }
    const python::Binding* alias = context.model().binding_created_by(assignment.field("left").text(), assignment);
    if (alias == nullptr || alias->kind != python::BindingKind::Alias) continue;
    std::vector<const Reference*> members = members_of(alias);
    Node name = reference.node.field("attribute");
    Rewrite group =
        group_edits({Edit::replace(name.range(), spelling(reference.rename).new_name)}, nullptr, members, context);
    report(reference, group, context);
    for (const Reference* member : members) report(*member, group, context);
    handled.push_back(&reference);
    handled.insert(handled.end(), members.begin(), members.end());
  }

  for (const Reference& reference : references_) {
    if (is_handled(&reference)) continue;
    if (old_still_exists_) {
      report(reference, call_on_its_own(reference, context), context);
      continue;
    }
    // Attribute chains and getattr calls are fixed one by one; other names bound by assignment
    // are reported unfixed.
    bool fixable = reference.node.kind() == "attribute" || reference.node.kind() == "call";
    report(reference,
           fixable ? reference_edits(reference, &spelling(reference.rename).new_name, context)
                   : Rewrite(std::string(from_star_import(reference.binding)
                                             ? "the name comes from a star import; import it by name for a fix"
                                             : "the name is bound by an assignment the fix cannot follow")),
           context);
  }
}

}  // namespace

std::unique_ptr<engine::PythonCheck> make_renamed_callable_check(const engine::RuleSpec& rule) {
  return std::make_unique<RenamedCallableCheck>(rule);
}

}  // namespace torchmigrate::checks
