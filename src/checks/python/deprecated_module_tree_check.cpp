// SPDX-License-Identifier: MIT
// Family `deprecated-module-tree`: an import or use of a deprecated module tree (TM301:
// `torch.ao.quantization` and its alias `torch.quantization`). One finding per import statement
// or attribute use, with advice by API; the only fix is `move`, which points imports of one
// submodule at its replacement when every imported name exists there.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;

std::string_view last_component(std::string_view qualified) { return qualified.substr(qualified.rfind('.') + 1); }

// Empty for a name without a dot.
std::string_view parent_of(std::string_view qualified) {
  size_t dot = qualified.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : qualified.substr(0, dot);
}

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    size_t dot = path.find('.');
    parts.push_back(path.substr(0, dot));
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return parts;
}

class DeprecatedModuleTreeCheck final : public engine::PythonCheck {
 public:
  explicit DeprecatedModuleTreeCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    prefixes_ = params.strings("modules");
    if (params.has("submodules")) submodules_ = params.strings("submodules");
    default_advice_ = params.string("default_advice");
    if (params.has("advice")) {
      for (const Params& entry : params.objects("advice")) {
        for (const std::string& api : entry.strings("apis")) advice_index_[api] = advice_.size();
        advice_.push_back(
            {entry.string("text"), entry.has("covers") ? entry.strings("covers") : std::vector<std::string>{}});
        entry.finish();
      }
    }
    if (params.has("look_through")) look_through_ = params.strings("look_through");
    if (params.has("exclude")) exclude_ = params.strings("exclude");
    if (params.has("move")) {
      Params move = params.object("move");
      Move parsed;
      parsed.from = move.string("from");
      parsed.to = move.string("to");
      parsed.names = move.strings("names");
      if (move.has("not_with")) parsed.not_with = move.strings("not_with");
      move.finish();
      move_ = std::move(parsed);
    }
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    // Identifiers only matter for deciding whether `move` keeps a module name's uses working.
    if (!move_) return {"import_statement", "import_from_statement", "attribute"};
    return {"import_statement", "import_from_statement", "attribute", "identifier"};
  }

  // Import statements and uses are reported each on its own; only the `move` fix weighs every
  // use of the imported name, and no file without the moved module's last name can get it.
  [[nodiscard]] bool statement_local(std::string_view text) const override {
    return !move_ || text.find(last_component(move_->from)) == std::string_view::npos;
  }

  void visit(Node node, PythonCheckContext& context) override {
    std::string_view kind = node.kind();
    if (kind == "attribute") {
      visit_attribute(node, context);
    } else if (kind == "identifier") {
      visit_identifier(node, context);
    } else {
      visit_import(node, context);
    }
  }

  void finish(PythonCheckContext& context) override {
    // The import rewrite of a module name travels with the findings at its uses.
    std::map<const python::Binding*, const Pending*> moved;
    for (Pending& pending : pending_) {
      Diagnostic& diagnostic = context.report(rule(), pending.statement.range(), pending.values);
      if (pending.fix.empty() || uses_unmovable_) continue;
      // A module imported under a name is only moved when every use is a name its replacement has.
      if (pending.binding != nullptr && unsupported_uses_.count(pending.binding)) continue;
      diagnostic.fixes.push_back(move_fix(pending));
      if (pending.binding != nullptr) moved[pending.binding] = &pending;
    }
    for (const Use& use : uses_) {
      Diagnostic& diagnostic = context.report(rule(), use.node.range(), use.values);
      auto group = moved.find(use.binding);
      if (group != moved.end()) diagnostic.fixes.push_back(move_fix(*group->second));
    }
  }

 private:
  struct Use {
    Node node;
    std::map<std::string, std::string> values;
    const python::Binding* binding = nullptr;  // the name the attribute chain starts from
  };
  struct Advice {
    std::string text;
    std::vector<std::string> covers;  // APIs whose advice this one's makes redundant in one message
  };
  // Imports of `from` (a module) become imports of `to` when every name used from it is in `names`.
  struct Move {
    std::string from, to;
    std::vector<std::string> names;
    // Modules whose objects the moved functions reject: a file that imports or uses anything
    // under one of them (torch.ao's quantizers, which torchao's `prepare_pt2e` does not accept)
    // keeps its imports as they are.
    std::vector<std::string> not_with;
  };
  struct Pending {
    Node statement;
    std::map<std::string, std::string> values;
    std::vector<Edit> fix;                     // empty: no fix
    std::vector<std::string> imports;          // the modules the fixed statement imports
    const python::Binding* binding = nullptr;  // the module name the fix rebinds, if any
  };

  [[nodiscard]] Fix move_fix(const Pending& pending) const {
    Fix fix = rule_fix(rule(), "Import from `" + move_->to + "`", pending.fix, Applicability::Unsafe);
    fix.imported_modules = pending.imports;
    return fix;
  }

  // The deprecated prefix `qualified` is under, or empty (also for an `exclude`d name).
  [[nodiscard]] std::string_view prefix_of(std::string_view qualified) const {
    if (is_excluded(qualified)) return {};
    for (const std::string& prefix : prefixes_) {
      if (is_under(qualified, prefix)) return prefix;
    }
    return {};
  }

  [[nodiscard]] bool is_excluded(std::string_view qualified) const {
    return std::any_of(exclude_.begin(), exclude_.end(),
                       [&](const std::string& excluded) { return is_under(qualified, excluded); });
  }

  // The index into `advice_` for the API at `relative` (the part after the deprecated prefix,
  // empty for the module itself); `advice_.size()` for the default advice.
  [[nodiscard]] size_t advice_for(std::string_view relative) const {
    std::vector<std::string_view> parts = components(relative);
    std::string_view api = parts.empty() ? std::string_view() : parts[0];
    // A `look_through` submodule shares its name with one of its functions: advise on what is inside.
    bool through = std::find(look_through_.begin(), look_through_.end(), api) != look_through_.end();
    if (through && parts.size() > 1) api = parts[1];
    auto found = advice_index_.find(api);
    return found == advice_index_.end() ? advice_.size() : found->second;
  }

  [[nodiscard]] size_t advice(std::string_view qualified) const {
    std::string_view prefix = prefix_of(qualified);
    return advice_for(qualified.substr(std::min(qualified.size(), prefix.size() + 1)));
  }

  [[nodiscard]] const std::string& advice_text(size_t index) const {
    return index < advice_.size() ? advice_[index].text : default_advice_;
  }

  void visit_attribute(Node attribute, PythonCheckContext& context) {
    // The walk knows the parent, so an inner part of a chain costs no resolution.
    if (!is_outermost_attribute(attribute, context.parent())) return;
    std::optional<std::string> qualified = context.model().resolve(attribute);
    if (!qualified || prefix_of(*qualified).empty()) return;
    if (from_imported_object(attribute, context)) return;
    Node root = attribute;
    while (root.kind() == "attribute") root = root.field("object");
    const python::Binding* binding = root.kind() == "identifier" ? context.model().lookup(root.text(), root) : nullptr;
    note_unmovable(*qualified);
    uses_.push_back({attribute, {{"name", *qualified}, {"advice", advice_text(advice(*qualified))}}, binding});
  }

  void note_unmovable(std::string_view qualified) {
    if (!move_) return;
    for (const std::string& module : move_->not_with) uses_unmovable_ = uses_unmovable_ || is_under(qualified, module);
  }

  // Records how names bound to the `move.from` module are used, to decide whether moving the
  // import keeps every use working.
  void visit_identifier(Node identifier, PythonCheckContext& context) {
    // Only names imported from `move.from` matter: an identifier spelled otherwise needs neither
    // its parent (a walk from the root) nor a lookup.
    if (!moved_names_) moved_names_ = names_imported_from_moved(context);
    if (!moved_names_->contains(identifier.text()) || !is_reference_identifier(identifier, context.parent())) return;
    const python::Binding* binding = context.model().lookup(identifier.text(), identifier);
    if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    if (binding->qualified_name != move_->from) return;
    Node parent = context.parent();
    bool supported = parent && parent.kind() == "attribute" && parent.field("object") == identifier &&
                     is_moved_name(parent.field("attribute").text());
    if (!supported) unsupported_uses_.insert(binding);
  }

  // The names any scope binds by importing `move.from`; none without its last component in the text.
  [[nodiscard]] std::set<std::string, std::less<>> names_imported_from_moved(PythonCheckContext& context) const {
    std::set<std::string, std::less<>> names;
    if (context.file().text().find(last_component(move_->from)) == std::string_view::npos) return names;
    for (const python::Scope& scope : context.model().all_scopes()) {
      for (const auto& [name, bindings] : scope.bindings) {
        bool moved = std::any_of(bindings.begin(), bindings.end(), [&](const python::Binding& binding) {
          return binding.kind == python::BindingKind::Import && binding.qualified_name == move_->from;
        });
        if (moved) names.insert(name);
      }
    }
    return names;
  }

  // `Name.attr` where `Name` is a class, function or object brought in by a from-import under a
  // deprecated prefix (`ConvertCustomConfig.from_dict`, `quantized_decomposed_lib.define`): the
  // import statement already carries the finding, and the attribute is no deprecated API of its
  // own. Modules imported that way (`from torch.ao import quantization as aoq`) still count.
  [[nodiscard]] bool from_imported_object(Node attribute, PythonCheckContext& context) const {
    Node root = attribute;
    while (root.kind() == "attribute") root = root.field("object");
    if (!root || root.kind() != "identifier") return false;
    const python::Binding* binding = context.model().lookup(root.text(), root);
    if (binding == nullptr || binding->kind != python::BindingKind::Import) return false;
    if (!binding->node || binding->node.kind() != "import_from_statement") return false;
    std::string_view bound = binding->qualified_name;
    if (prefix_of(bound).empty()) return false;
    return !is_deprecated_module(bound);
  }

  // The prefixes themselves and modules under them (`submodules`, by last component): names
  // whose attributes are deprecated APIs in turn.
  [[nodiscard]] bool is_deprecated_module(std::string_view qualified) const {
    std::string_view prefix = prefix_of(qualified);
    if (qualified.size() == prefix.size()) return true;
    std::string_view last = last_component(qualified);
    return std::find(submodules_.begin(), submodules_.end(), last) != submodules_.end();
  }

  [[nodiscard]] bool is_moved_name(std::string_view name) const {
    return std::find(move_->names.begin(), move_->names.end(), name) != move_->names.end();
  }

  void visit_import(Node statement, PythonCheckContext& context) {
    std::vector<ImportedName> names = imports_under(statement, prefixes_);
    std::erase_if(names, [&](const ImportedName& name) { return is_excluded(name.qualified); });
    if (names.empty()) return;
    for (const ImportedName& name : names) note_unmovable(name.qualified);
    Pending pending;
    pending.statement = statement;
    // Distinct advice for the names, in order.
    std::vector<size_t> advices;
    for (const ImportedName& name : names) {
      size_t index = advice(name.qualified);
      if (std::find(advices.begin(), advices.end(), index) == advices.end()) advices.push_back(index);
    }
    // Advice that another one in the same message already covers (`covers`) goes.
    std::vector<size_t> covered;
    for (size_t index : advices) {
      if (index == advice_.size()) continue;
      for (const std::string& api : advice_[index].covers) {
        if (size_t other = advice_for(api); other != index) covered.push_back(other);
      }
    }
    std::erase_if(advices,
                  [&](size_t index) { return std::find(covered.begin(), covered.end(), index) != covered.end(); });
    std::string joined;
    for (size_t index : advices) joined += (joined.empty() ? "" : "; ") + advice_text(index);
    std::string shown = names[0].qualified;
    if (names.size() > 1 && statement.kind() == "import_from_statement") {
      shown = std::string(statement.field("module_name").text());
    }
    pending.values = {{"name", shown}, {"advice", joined}};
    if (move_) pending_fix(statement, names, pending, context);
    pending_.push_back(std::move(pending));
  }

  // The `move` rewrite, when the statement imports nothing but `move.from` or names it has.
  void pending_fix(Node statement, const std::vector<ImportedName>& names, Pending& pending,
                   PythonCheckContext& context) const {
    const Move& move = *move_;
    if (statement.kind() == "import_statement") {
      // `import a.b.old as m`: only aliased, else the uses spell the old path.
      if (statement.named_child_count() != 1 || names.size() != 1) return;
      Node item = names[0].item;
      if (item.kind() != "aliased_import" || names[0].qualified != move.from) return;
      pending.fix = {ImportEditor::replace_module(item, move.to)};
      pending.imports = {move.to};
      pending.binding = context.model().binding_created_by(item.field("alias").text(), statement);
      return;
    }
    Node module = statement.field("module_name");
    std::vector<Node> items = statement.children_of_field("name");
    if (items.empty() || items.size() != names.size()) return;  // wildcard or names from elsewhere
    if (module.text() == move.from) {
      for (Node item : items) {
        if (!is_moved_name(ImportEditor::imported_name(item).text())) return;
      }
      pending.fix = {ImportEditor::replace_module(statement, move.to)};
      pending.imports = {move.to};
      return;
    }
    // `from a.b import old [as m]`: only when the module keeps its last name, which the
    // statement goes on binding.
    std::string_view from_parent = parent_of(move.from);
    std::string_view to_parent = parent_of(move.to);
    if (last_component(move.from) != last_component(move.to) || to_parent.empty()) return;
    if (module.text() == from_parent && items.size() == 1 && names[0].qualified == move.from) {
      Node bound = ImportEditor::bound_name(items[0]);
      pending.fix = {ImportEditor::replace_module(statement, to_parent)};
      pending.imports = {std::string(to_parent), move.to};
      pending.binding = context.model().binding_created_by(bound.text(), statement);
    }
  }

  std::vector<std::string> prefixes_;
  std::vector<std::string> submodules_;
  std::vector<Advice> advice_;
  std::map<std::string, size_t, std::less<>> advice_index_;  // API -> index into `advice_`
  std::string default_advice_;
  std::vector<std::string> look_through_;
  std::vector<std::string> exclude_;  // names under the tree that another rule reports
  std::optional<Move> move_;
  std::vector<Pending> pending_;
  std::vector<Use> uses_;
  std::set<const python::Binding*> unsupported_uses_;
  bool uses_unmovable_ = false;  // the file imports or uses something under `move.not_with`
  std::optional<std::set<std::string, std::less<>>> moved_names_;  // of this check's file, on its first identifier
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_deprecated_module_tree_check(const engine::RuleSpec& rule) {
  return std::make_unique<DeprecatedModuleTreeCheck>(rule);
}

}  // namespace torchmigrate::checks
