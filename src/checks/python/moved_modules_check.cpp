// SPDX-License-Identifier: MIT
// Family `moved-modules`: private modules a release moved, deleted or emptied (TM111: the
// TorchScript ONNX exporter's modules under `torch.onnx._internal.torchscript_exporter`).
// Reported: imports and uses of a moved module (fix: import it from its new place in a `try`,
// from the old one in `except ImportError`, or from a public module that has the name in every
// release), of a deleted module, of a name a package's empty `__init__` does not have, of a name
// a module no longer has (its `namespaces` table; fix: import them from the module that has them
// now, where one does), and attribute uses of a submodule its package no longer imports.
// Optionally (`made_arguments`), calls of a function that survived with an argument it no longer
// accepts, made in the same scope (TM127: `flex_attention(q, ...)` with a nested jagged `q`).
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "torchmigrate/checks/made_argument.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;
using Names = std::set<std::string, std::less<>>;

std::string_view last_component(std::string_view qualified) { return qualified.substr(qualified.rfind('.') + 1); }

std::string_view parent_of(std::string_view qualified) {
  size_t dot = qualified.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : qualified.substr(0, dot);
}

// `text` with each `{key}` of `values` replaced.
std::string fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    std::string placeholder = "{" + key + "}";
    for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

Names name_set(const Params& params, const std::string& key) {
  Names names;
  if (params.has(key)) {
    for (const std::string& name : params.strings(key)) names.insert(name);
  }
  return names;
}

// Whether `statement` (of a block) binds `name`: a def or class, `name = ...`, an import.
bool binds(Node statement, std::string_view name) {
  if (statement.kind() == "decorated_definition") statement = statement.field("definition");
  std::string_view kind = statement.kind();
  if (kind == "function_definition" || kind == "class_definition") return statement.field("name").text() == name;
  if (kind == "expression_statement" && statement.named_child_count() == 1) {
    Node assignment = statement.named_child(0);
    return assignment.kind() == "assignment" && assignment.field("left").text() == name;
  }
  if (kind != "import_from_statement" && kind != "import_statement") return false;
  for (Node item : statement.children_of_field("name")) {
    Node bound = kind == "import_from_statement"   ? ImportEditor::bound_name(item)
                 : item.kind() == "aliased_import" ? item.field("alias")
                                                   : item;
    if (bound.text() == name || bound.text().substr(0, bound.text().find('.')) == name) return true;
  }
  return false;
}

// `statement` in the body of a `try` whose `except ImportError` (or broader) handler binds
// `name` itself, such as its own copy of a helper: code that works on every release.
bool fallback_binds(Node statement, std::string_view name) {
  Node block = statement.parent();
  Node owner = block ? block.parent() : Node();
  if (!owner || owner.kind() != "try_statement" || !(owner.field("body") == block)) return false;
  for (uint32_t i = 0; i < owner.named_child_count(); ++i) {
    Node clause = owner.named_child(i);
    if (clause.kind() != "except_clause" || clause.named_child_count() == 0) continue;
    Node body = clause.named_child(clause.named_child_count() - 1);
    std::string_view caught = clause.source().substr(clause.start(), body.start() - clause.start());
    bool catches = clause.named_child_count() == 1 || caught.find("ImportError") != std::string_view::npos ||
                   caught.find("ModuleNotFoundError") != std::string_view::npos ||
                   caught.find("Exception") != std::string_view::npos;
    if (!catches || body.kind() != "block") continue;
    for (uint32_t j = 0; j < body.named_child_count(); ++j) {
      if (binds(body.named_child(j), name)) return true;
    }
  }
  return false;
}

struct Move {
  std::string from, to;
};
// Names of a moved module that a public module has in every release (`to`).
struct PublicNames {
  std::string module, to;
  Names names;
};
// A package whose `__init__` binds nothing: only its submodules can be imported from it.
struct Package {
  std::string module;
  Names submodules;
};
// A module that lost names; its package may bind the same name to another module.
struct Namespace {
  std::string module;
  Names lost;
  std::optional<std::string> bound_module;  // what `package.last` is until the submodule is imported
  Names lost_from_both;                     // lost names that module lacks too
  bool imported_by_parent = true;
  std::optional<std::string> to;  // the module that has the lost names now, if one does
  bool fallback = true;           // import from `to` in a `try`, from the module in `except ImportError`
  std::optional<std::string> advice;  // the title of the display-only suggestion for a lost name
};

// How an attribute chain reaches a namespace module.
enum class Reach { Module, Either, Package };

class MovedModulesCheck final : public engine::PythonCheck {
 public:
  explicit MovedModulesCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    if (params.has("moved")) {
      for (const Params& entry : params.objects("moved")) {
        moved_.push_back({entry.string("from"), entry.string("to")});
        entry.finish();
      }
    }
    if (params.has("public_names")) {
      for (const Params& entry : params.objects("public_names")) {
        public_.push_back({entry.string("module"), entry.string("to"), name_set(entry, "names")});
        entry.finish();
      }
    }
    if (params.has("deleted")) deleted_ = params.strings("deleted");
    if (params.has("packages")) {
      for (const Params& entry : params.objects("packages")) {
        packages_.push_back({entry.string("module"), name_set(entry, "submodules")});
        entry.finish();
      }
    }
    if (params.has("namespaces")) read_namespaces(params);
    if (params.has("made_arguments")) made_ = read_made_argument_rule(params.object("made_arguments"));
    Params details = params.object("details");
    for (const char* kind : {"moved", "deleted", "package", "lost", "not_imported"})
      details_[kind] = details.string(kind);
    details.finish();
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    if (made_) return {"import_statement", "import_from_statement", "attribute", "call"};
    return {"import_statement", "import_from_statement", "attribute"};
  }

  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "call") {
      visit_call(node, context);
    } else if (node.kind() == "attribute") {
      visit_attribute(node, context);
    } else if (node.kind() == "import_statement") {
      visit_import(node, context);
    } else {
      visit_from_import(node, context);
    }
  }

  void finish(PythonCheckContext& context) override {
    for (Finding& finding : findings_) {
      Diagnostic& diagnostic = context.report(rule(), finding.range, finding.values);
      if (finding.severity) diagnostic.severity = *finding.severity;
      if (finding.fix) diagnostic.fixes.push_back(std::move(*finding.fix));
    }
    for (const Use& use : uses_) report_use(use, context);
  }

 private:
  struct Finding {
    TextRange range;
    std::map<std::string, std::string> values;
    std::optional<Fix> fix;
    std::optional<Severity> severity = std::nullopt;  // the rule's own when unset
  };
  // An attribute chain into a namespace module, decided once every import is seen.
  struct Use {
    Node node;
    const Namespace* space;
    std::string name;  // the first name after the module; empty for the module itself
    Reach reach;
    size_t depth;  // attributes after the module's own
  };

  void read_namespaces(const Params& params) {
    for (const Params& entry : params.objects("namespaces")) {
      Namespace space{
          entry.string("module"), name_set(entry, "lost"), std::nullopt, {}, true, std::nullopt, true, std::nullopt};
      if (entry.has("parent_binds")) {
        Params bound = entry.object("parent_binds");
        space.bound_module = bound.string("module");
        space.lost_from_both = name_set(bound, "lost");
        bound.finish();
      }
      space.imported_by_parent = entry.boolean("imported_by_parent", true);
      if (entry.has("to")) space.to = entry.string("to");
      space.fallback = entry.boolean("fallback", true);
      if (entry.has("advice")) space.advice = entry.string("advice");
      (void)entry.boolean("hand_written", false);  // read by scripts/lost_names.py only
      entry.finish();
      namespaces_.push_back(std::move(space));
    }
  }

  [[nodiscard]] const Move* moved(std::string_view qualified) const {
    for (const Move& move : moved_) {
      if (is_under(qualified, move.from)) return &move;
    }
    return nullptr;
  }

  [[nodiscard]] const std::string* deleted(std::string_view qualified) const {
    for (const std::string& module : deleted_) {
      if (is_under(qualified, module)) return &module;
    }
    return nullptr;
  }

  [[nodiscard]] const Namespace* space_of(std::string_view qualified) const {
    for (const Namespace& space : namespaces_) {
      if (is_under(qualified, space.module)) return &space;
    }
    return nullptr;
  }

  // The new name of `qualified`, under a moved module.
  static std::string moved_name(const Move& move, std::string_view qualified) {
    return move.to + std::string(qualified.substr(move.from.size()));
  }

  [[nodiscard]] std::string detail(const std::string& kind, std::map<std::string, std::string> values) const {
    return fill(details_.at(kind), values);
  }

  void add(Node node, std::string name, std::string detail, std::optional<Fix> fix = std::nullopt) {
    findings_.push_back({node.range(), {{"name", std::move(name)}, {"detail", std::move(detail)}}, std::move(fix)});
  }

  // `f(x)` where `x` was made in this scope in a way `f` no longer accepts: advice, no edit.
  void visit_call(Node call, PythonCheckContext& context) {
    std::optional<MadeArgument> made = made_argument(call, context.model(), *made_);
    if (!made) return;
    std::string text =
        fill(made_->detail, {{"argument", std::string(made->argument.text())}, {"made_by", made->made_by}});
    findings_.push_back({call.range(),
                         {{"name", made->callee}, {"detail", std::move(text)}},
                         rule_fix(rule(), made_->advice, {}, Applicability::DisplayOnly),
                         made_->severity});
  }

  [[nodiscard]] std::string moved_detail(const Move& move) const {
    return detail("moved", {{"module", move.from}, {"to", move.to}});
  }

  // A problem with `qualified` that does not depend on how it is imported: a moved or deleted
  // module, or a name under one; a deleted module inside a moved one wins. Returns whether it
  // reported.
  bool report_module(Node node, const std::string& qualified, std::optional<Fix> fix) {
    const Move* move = moved(qualified);
    const std::string* module = deleted(qualified);
    if (module != nullptr && (move == nullptr || module->size() > move->from.size())) {
      add(node, qualified, detail("deleted", {{"module", *module}}));
      return true;
    }
    if (move != nullptr) {
      add(node, qualified, moved_detail(*move), std::move(fix));
      return true;
    }
    return false;
  }

  [[nodiscard]] Fix fallback_fix(Node statement, const std::vector<Edit>& edits, const std::string& to,
                                 const std::string& from) const {
    std::optional<Edit> wrapped = ImportEditor::with_fallback(statement, edits);
    Fix fix = rule_fix(rule(), "Import from `" + to + "`, falling back to `" + from + "`",
                       wrapped ? std::vector<Edit>{*wrapped} : std::vector<Edit>{}, Applicability::Safe);
    if (!wrapped) fix.applicability = Applicability::DisplayOnly;  // shares its line with other code
    fix.imported_modules = {to};
    return fix;
  }

  // `import a.b.moved [as m]`: one finding per item; the fix needs an alias (else the uses spell
  // the old path) and the item alone in its statement.
  void visit_import(Node statement, PythonCheckContext& /*context*/) {
    std::vector<Node> items = statement.children_of_field("name");
    for (Node item : items) {
      Node dotted = item.kind() == "aliased_import" ? item.field("name") : item;
      std::string qualified(dotted.text());
      if (const Namespace* space = space_of(qualified); space != nullptr && qualified == space->module) {
        imported_.insert(space->module);
      }
      std::optional<Fix> fix;
      const Move* move = moved(qualified);
      if (move != nullptr && items.size() == 1 && item.kind() == "aliased_import") {
        std::string target = moved_name(*move, qualified);
        fix = fallback_fix(statement, {ImportEditor::replace_module(item, target)}, target, qualified);
      }
      report_module(item, qualified, std::move(fix));
    }
  }

  void visit_from_import(Node statement, PythonCheckContext& context) {
    Node module_node = statement.field("module_name");
    if (!module_node || module_node.kind() != "dotted_name") return;  // relative imports are the project's own
    std::string module(module_node.text());
    std::vector<Node> items = statement.children_of_field("name");
    if (const Namespace* space = space_of(module); space != nullptr && module == space->module) {
      imported_.insert(module);
    }
    if (moved(module) != nullptr || deleted(module) != nullptr) {
      report_module(module_node, module, from_moved_fix(statement, module, items));
      return;
    }
    std::optional<Fix> fix = from_parent_fix(statement, module, items);  // the same for every moved name
    for (Node item : items) {
      Node imported = ImportEditor::imported_name(item);
      std::string qualified = module + "." + std::string(imported.text());
      if (report_module(item, qualified, fix)) continue;
      if (const Namespace* space = space_of(qualified); space != nullptr && qualified == space->module) {
        // `from torch.onnx import symbolic_opset11` imports the submodule unless the package binds the name.
        if (!space->bound_module) imported_.insert(qualified);
        continue;
      }
      check_lost_import(item, module, std::string(imported.text()));
      check_package_import(statement, item, module, std::string(imported.text()), context);
    }
  }

  // `from old.module import a, b`: from the public module when it has every name, else from the
  // new module with a fallback.
  [[nodiscard]] std::optional<Fix> from_moved_fix(Node statement, const std::string& module,
                                                  const std::vector<Node>& items) const {
    const Move* move = moved(module);
    if (move == nullptr || items.empty()) return std::nullopt;
    for (const PublicNames& names : public_) {
      if (names.module != module) continue;
      bool all = std::all_of(items.begin(), items.end(),
                             [&](Node item) { return names.names.contains(ImportEditor::imported_name(item).text()); });
      if (!all) break;
      Fix fix = rule_fix(rule(), "Import from `" + names.to + "`", {ImportEditor::replace_module(statement, names.to)},
                         Applicability::Safe);
      fix.imported_modules = {names.to};
      return fix;
    }
    std::string target = moved_name(*move, module);
    return fallback_fix(statement, {ImportEditor::replace_module(statement, target)}, target, module);
  }

  // `from package import moved_a, moved_b`: when every name is a moved module and they all
  // moved to the same package under the same names.
  [[nodiscard]] std::optional<Fix> from_parent_fix(Node statement, const std::string& module,
                                                   const std::vector<Node>& items) const {
    std::optional<std::string> target;
    std::vector<std::string> submodules;  // imported too: `from pkg import mod` runs `pkg.mod`
    for (Node item : items) {
      std::string_view name = ImportEditor::imported_name(item).text();
      std::string qualified = module + "." + std::string(name);
      const Move* move = moved(qualified);
      if (move == nullptr || move->from != qualified || last_component(move->to) != name) return std::nullopt;
      std::string parent(parent_of(move->to));
      if (target && *target != parent) return std::nullopt;
      target = parent;
      submodules.push_back(move->to);
    }
    if (!target) return std::nullopt;
    Fix fix = fallback_fix(statement, {ImportEditor::replace_module(statement, *target)}, *target, module);
    fix.imported_modules.insert(fix.imported_modules.end(), submodules.begin(), submodules.end());
    return fix;
  }

  // `from torch.onnx.symbolic_opset9 import _avg_pool`: the submodule itself, which lost it.
  void check_lost_import(Node item, const std::string& module, const std::string& name) {
    const Namespace* space = space_of(module);
    if (space == nullptr || module != space->module || !space->lost.contains(name)) return;
    if (fallback_binds(item.parent(), ImportEditor::bound_name(item).text())) return;
    Finding finding = lost(item, *space, name);
    // `from module import lost_a, lost_b`: every name now lives in `to`, so the statement can
    // import from there.
    Node statement = item.parent();
    std::vector<Node> items = statement.children_of_field("name");
    bool all_lost = space->to && std::all_of(items.begin(), items.end(), [&](Node other) {
                      return space->lost.contains(ImportEditor::imported_name(other).text());
                    });
    if (all_lost && space->fallback) {
      finding.fix = fallback_fix(statement, {ImportEditor::replace_module(statement, *space->to)}, *space->to, module);
    } else if (all_lost) {
      finding.fix = rule_fix(rule(), "Import from `" + *space->to + "`",
                             {ImportEditor::replace_module(statement, *space->to)}, Applicability::Safe);
      finding.fix->imported_modules = {*space->to};
    } else if (space->to && !space->fallback) {
      split_lost(statement, items, *space, finding);
    }
    findings_.push_back(std::move(finding));
  }

  // `from module import kept, lost`: the lost names move to a `from to import ...` statement
  // below, the others stay (display-only advice where the statement cannot be split cleanly).
  void split_lost(Node statement, const std::vector<Node>& items, const Namespace& space, Finding& finding) const {
    std::vector<Node> lost_items;
    for (Node item : items) {
      if (space.lost.contains(ImportEditor::imported_name(item).text())) lost_items.push_back(item);
    }
    std::optional<std::vector<Edit>> edits = ImportEditor::split_off(statement, lost_items, *space.to);
    if (!edits) return;
    std::string names;
    for (Node item : lost_items) names += (names.empty() ? "`" : ", `") + std::string(item.text()) + "`";
    finding.fix =
        rule_fix(rule(), "Import " + names + " from `" + *space.to + "`, the rest from `" + space.module + "`",
                 std::move(*edits), Applicability::Safe);
    finding.fix->imported_modules = {*space.to};
  }

  [[nodiscard]] Finding lost(Node node, const Namespace& space, const std::string& name) const {
    std::string title = space.advice ? fill(*space.advice, {{"name", name}})
                        : space.to   ? "Import `" + name + "` from `" + *space.to + "`"
                                     : "Copy `" + name + "` into the project: it is private";
    Fix advice = rule_fix(rule(), std::move(title), {}, Applicability::DisplayOnly);
    advice.applicability = Applicability::DisplayOnly;  // advice with no edit, whatever the catalog's safety
    std::map<std::string, std::string> values{{"module", space.module}, {"names", name}};
    if (space.to) values["to"] = *space.to;
    std::string text = detail("lost", values);
    return {node.range(), {{"name", space.module + "." + name}, {"detail", std::move(text)}}, std::move(advice)};
  }

  // `from package import Name` where the package's `__init__` is empty and `Name` is no submodule.
  void check_package_import(Node statement, Node item, const std::string& module, const std::string& name,
                            PythonCheckContext& /*context*/) {
    for (const Package& package : packages_) {
      if (package.module != module || package.submodules.contains(name)) continue;
      std::optional<Fix> fix;
      for (const PublicNames& names : public_) {
        if (!names.names.contains(name) || statement.children_of_field("name").size() != 1) continue;
        fix = rule_fix(rule(), "Import from `" + names.to + "`", {ImportEditor::replace_module(statement, names.to)},
                       Applicability::Safe);
        fix->imported_modules = {names.to};
        break;
      }
      add(item, module + "." + name, detail("package", {{"module", module}, {"names", name}}), std::move(fix));
    }
  }

  void visit_attribute(Node attribute, PythonCheckContext& context) {
    if (!is_outermost_attribute(attribute, context.parent())) return;
    std::optional<std::string> qualified = context.model().resolve(attribute);
    if (!qualified) return;
    Node root = attribute;
    while (root.kind() == "attribute") root = root.field("object");
    const python::Binding* binding = root.kind() == "identifier" ? context.model().lookup(root.text(), root) : nullptr;
    if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    const std::string& bound = binding->qualified_name;
    // A name whose import is already reported (or is a from-imported object) needs no second finding.
    if (moved(bound) != nullptr || deleted(bound) != nullptr) return;
    if (report_module(attribute, *qualified, std::nullopt)) return;
    const Namespace* space = space_of(*qualified);
    if (space == nullptr || (is_under(bound, space->module) && bound != space->module)) return;
    std::string name;
    std::string_view rest = std::string_view(*qualified).substr(space->module.size());
    if (!rest.empty()) name = std::string(rest.substr(1, rest.find('.', 1) - 1));
    size_t depth = std::count(rest.begin(), rest.end(), '.');
    uses_.push_back({attribute, space, std::move(name), reach_of(*binding, *space), depth});
  }

  // `import pkg.mod as m` is the submodule; `from pkg import mod` is what the package binds;
  // `import pkg` reaches it through the package's attribute.
  static Reach reach_of(const python::Binding& binding, const Namespace& space) {
    if (binding.qualified_name != space.module) return Reach::Package;
    if (binding.node && binding.node.kind() == "import_from_statement" && space.bound_module) return Reach::Either;
    return Reach::Module;
  }

  void report_use(const Use& use, PythonCheckContext& context) {
    const Namespace& space = *use.space;
    Reach reach = use.reach;
    if (reach == Reach::Package && imported_.contains(space.module)) reach = Reach::Module;
    if (reach == Reach::Package && space.bound_module) reach = Reach::Either;
    if (reach == Reach::Package && !space.imported_by_parent) {
      std::string_view package = parent_of(space.module);
      std::string text = detail("not_imported", {{"module", space.module},
                                                 {"package", std::string(package)},
                                                 {"name", std::string(last_component(space.module))}});
      Node module = use.node;  // `torch.onnx.symbolic_opset11` in `torch.onnx.symbolic_opset11.pad`
      for (size_t i = 0; i < use.depth && module.kind() == "attribute"; ++i) module = module.field("object");
      context.report(rule(), module.range(), {{"name", space.module}, {"detail", text}});
      return;
    }
    const Names& names = reach == Reach::Either ? space.lost_from_both : space.lost;
    if (use.name.empty() || !names.contains(use.name)) return;
    Finding finding = lost(use.node, space, use.name);
    context.report(rule(), finding.range, finding.values).fixes.push_back(std::move(*finding.fix));
  }

  std::vector<Move> moved_;
  std::vector<PublicNames> public_;
  std::vector<std::string> deleted_;
  std::vector<Package> packages_;
  std::vector<Namespace> namespaces_;
  std::map<std::string, std::string> details_;
  std::vector<Finding> findings_;
  std::vector<Use> uses_;
  std::optional<MadeArgumentRule> made_;
  Names imported_;  // namespace modules this file imports as submodules
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_moved_modules_check(const engine::RuleSpec& rule) {
  return std::make_unique<MovedModulesCheck>(rule);
}

}  // namespace torchmigrate::checks
