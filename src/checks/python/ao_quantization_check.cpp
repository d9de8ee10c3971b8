// SPDX-License-Identifier: MIT
// TM301: `torch.ao.quantization` (and its alias `torch.quantization`) is deprecated. One finding
// per import statement or attribute use, with advice by API; the only fix moves PT2E imports to
// `torchao.quantization.pt2e.quantize_pt2e`.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;

constexpr std::string_view kPt2eModule = "quantize_pt2e";
// Where the fix moves PT2E imports to.
constexpr std::string_view kTorchaoPt2e = "torchao.quantization.pt2e.quantize_pt2e";

// The functions torchao's `quantize_pt2e` module provides under the same names.
bool is_pt2e_function(std::string_view name) {
  return name == "prepare_pt2e" || name == "prepare_qat_pt2e" || name == "convert_pt2e";
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

// Advice for the API at `relative` (the part after the deprecated prefix, empty for the module).
std::string advice_for(std::string_view relative) {
  std::vector<std::string_view> parts = components(relative);
  std::string_view api = parts.empty() ? std::string_view() : parts[0];
  // `torch.ao.quantization.quantize` is both a module and a function; look through the module.
  if (api == "quantize" && parts.size() > 1) api = parts[1];
  if (api == "quantize_dynamic") {
    return "use torchao's `torchao.quantization.quantize_(model, config)` for dynamic and weight-only quantization";
  }
  if (api == "quantize" || api == "prepare" || api == "convert" || api == "prepare_qat" || api == "quantize_qat") {
    return "eager-mode quantization moves to torchao: `torchao.quantization.quantize_(model, config)` for "
           "dynamic and weight-only quantization, PT2E (`torchao.quantization.pt2e.quantize_pt2e`) for static "
           "quantization";
  }
  if (api == "quantize_fx") {
    return "FX graph mode quantization moves to torchao's PT2E quantization (`prepare_pt2e` / `convert_pt2e` in "
           "`torchao.quantization.pt2e.quantize_pt2e`)";
  }
  if (api == kPt2eModule) return "import it from `torchao.quantization.pt2e.quantize_pt2e` (torchao >= 0.11)";
  if (api == "quantizer") return "quantizers move to `torchao.quantization.pt2e.quantizer` (torchao >= 0.11)";
  return "migrate to torchao (`torchao.quantization`)";
}

class AoQuantizationCheck final : public engine::PythonCheck {
 public:
  explicit AoQuantizationCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    prefixes_ = params.strings("modules");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"import_statement", "import_from_statement", "attribute", "identifier"};
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
      if (pending.fix.empty()) continue;
      // A module imported under a name is only moved when every use is a function torchao has.
      if (pending.binding != nullptr && unsupported_uses_.count(pending.binding)) continue;
      diagnostic.fixes.push_back(pt2e_fix(pending));
      if (pending.binding != nullptr) moved[pending.binding] = &pending;
    }
    for (const Use& use : uses_) {
      Diagnostic& diagnostic = context.report(rule(), use.node.range(), use.values);
      auto group = moved.find(use.binding);
      if (group != moved.end()) diagnostic.fixes.push_back(pt2e_fix(*group->second));
    }
  }

 private:
  struct Use {
    Node node;
    std::map<std::string, std::string> values;
    const python::Binding* binding = nullptr;  // the name the attribute chain starts from
  };
  struct Pending {
    Node statement;
    std::map<std::string, std::string> values;
    std::vector<Edit> fix;                      // empty: no fix
    std::vector<std::string> imports;           // the modules the fixed statement imports
    const python::Binding* binding = nullptr;   // the module name the fix rebinds, if any
  };

  [[nodiscard]] Fix pt2e_fix(const Pending& pending) const {
    Fix fix;
    fix.title = "Import from `torchao.quantization.pt2e.quantize_pt2e`";
    fix.edits = pending.fix;
    fix.applicability = rule().fix_applicability.value_or(Applicability::Unsafe);
    fix.compat = rule().fix_compat;
    fix.imported_modules = pending.imports;
    return fix;
  }

  // The deprecated prefix `qualified` is under, or empty.
  [[nodiscard]] std::string_view prefix_of(std::string_view qualified) const {
    for (const std::string& prefix : prefixes_) {
      if (is_under(qualified, prefix)) return prefix;
    }
    return {};
  }

  [[nodiscard]] std::string advice(std::string_view qualified) const {
    std::string_view prefix = prefix_of(qualified);
    std::string_view relative = qualified.substr(std::min(qualified.size(), prefix.size() + 1));
    return advice_for(relative);
  }

  void visit_attribute(Node attribute, PythonCheckContext& context) {
    if (!is_outermost_attribute(attribute)) return;
    std::optional<std::string> qualified = context.model().resolve(attribute);
    if (!qualified || prefix_of(*qualified).empty()) return;
    if (from_imported_object(attribute, context)) return;
    Node root = attribute;
    while (root.kind() == "attribute") root = root.field("object");
    const python::Binding* binding = root.kind() == "identifier" ? context.model().lookup(root.text(), root) : nullptr;
    uses_.push_back({attribute, {{"name", *qualified}, {"advice", advice(*qualified)}}, binding});
  }

  // Records how names bound to a `quantize_pt2e` module are used, to decide whether moving the
  // import keeps every use working.
  void visit_identifier(Node identifier, PythonCheckContext& context) {
    // Only names imported from `quantize_pt2e` matter, and that import spells the word: without
    // it, no identifier of the file needs its parent (a walk from the root) or a lookup.
    if (!mentions_pt2e_) mentions_pt2e_ = context.file().text().find("quantize_pt2e") != std::string_view::npos;
    if (!*mentions_pt2e_) return;
    if (!is_reference_identifier(identifier)) return;
    const python::Binding* binding = context.model().lookup(identifier.text(), identifier);
    if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    if (!is_pt2e_module(binding->qualified_name)) return;
    Node parent = identifier.parent();
    bool supported = parent && parent.kind() == "attribute" && parent.field("object") == identifier &&
                     is_pt2e_function(parent.field("attribute").text());
    if (!supported) unsupported_uses_.insert(binding);
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

  // The prefixes themselves and the submodules of `torch.ao.quantization` / `torch.quantization`
  // (torch 2.8's package layout), i.e. names whose attributes are deprecated APIs in turn.
  [[nodiscard]] bool is_deprecated_module(std::string_view qualified) const {
    static constexpr std::array<std::string_view, 48> kSubmodules = {
        "backend_config", "experimental", "fake_quantize", "fuse_modules", "fuser_method_mappings", "fx",
        "observer", "pt2e", "qconfig", "qconfig_mapping", "quant_type", "quantization_mappings", "quantize",
        "quantize_fx", "quantize_jit", "quantize_pt2e", "quantizer", "stubs", "utils", "_correct_bias",
        "_equalize", "_learnable_fake_quantize", "_numeric_suite", "_numeric_suite_fx", "_decomposed",
        "custom_config", "_model_report",
        // quantizer.*
        "composable_quantizer", "embedding_quantizer", "x86_inductor_quantizer", "xnnpack_quantizer",
        "xnnpack_quantizer_utils", "xpu_inductor_quantizer",
        // pt2e.*
        "duplicate_dq_pass", "export_utils", "graph_utils", "lowering", "port_metadata_pass", "qat_utils",
        "representation", "_affine_quantization", "_numeric_debugger",
        // fx.*
        "lstm_utils", "match_utils", "pattern_utils", "qconfig_mapping_utils", "quantize_handler", "tracer"};
    std::string_view prefix = prefix_of(qualified);
    if (qualified.size() == prefix.size()) return true;
    std::string_view last = qualified.substr(qualified.rfind('.') + 1);
    return std::find(kSubmodules.begin(), kSubmodules.end(), last) != kSubmodules.end();
  }

  [[nodiscard]] static bool is_pt2e_module(std::string_view qualified) {
    return qualified == "torch.ao.quantization.quantize_pt2e";
  }

  void visit_import(Node statement, PythonCheckContext& context) {
    std::vector<ImportedName> names = imports_under(statement, prefixes_);
    if (names.empty()) return;
    Pending pending;
    pending.statement = statement;
    // Distinct advice for the names, in order.
    std::vector<std::string> advices;
    for (const ImportedName& name : names) {
      std::string text = advice(name.qualified);
      if (std::find(advices.begin(), advices.end(), text) == advices.end()) advices.push_back(text);
    }
    // The eager-mode advice already covers `quantize_dynamic`'s.
    if (advices.size() > 1 && std::find(advices.begin(), advices.end(), advice_for("prepare")) != advices.end()) {
      std::erase(advices, advice_for("quantize_dynamic"));
    }
    std::string joined;
    for (const std::string& text : advices) joined += (joined.empty() ? "" : "; ") + text;
    std::string shown = names[0].qualified;
    if (names.size() > 1 && statement.kind() == "import_from_statement") {
      shown = std::string(statement.field("module_name").text());
    }
    pending.values = {{"name", shown}, {"advice", joined}};
    pending_fix(statement, names, pending, context);
    pending_.push_back(std::move(pending));
  }

  // The PT2E import-path rewrite, when the statement imports nothing but PT2E entry points.
  void pending_fix(Node statement, const std::vector<ImportedName>& names, Pending& pending,
                   PythonCheckContext& context) const {
    if (statement.kind() == "import_statement") {
      // `import torch.ao.quantization.quantize_pt2e as qp`: only aliased, else the uses spell the old path.
      if (statement.named_child_count() != 1 || names.size() != 1) return;
      Node item = names[0].item;
      if (item.kind() != "aliased_import" || !is_pt2e_module(names[0].qualified)) return;
      pending.fix = {ImportEditor::replace_module(item, kTorchaoPt2e)};
      pending.imports = {std::string(kTorchaoPt2e)};
      pending.binding = context.model().binding_created_by(item.field("alias").text(), statement);
      return;
    }
    Node module = statement.field("module_name");
    std::vector<Node> items = statement.children_of_field("name");
    if (items.empty() || items.size() != names.size()) return;  // wildcard or names from elsewhere
    if (module.text() == "torch.ao.quantization.quantize_pt2e") {
      for (Node item : items) {
        if (!is_pt2e_function(ImportEditor::imported_name(item).text())) return;
      }
      pending.fix = {ImportEditor::replace_module(statement, kTorchaoPt2e)};
      pending.imports = {std::string(kTorchaoPt2e)};
      return;
    }
    // `from torch.ao.quantization import quantize_pt2e [as qp]`.
    if (module.text() == "torch.ao.quantization" && items.size() == 1 && is_pt2e_module(names[0].qualified)) {
      Node bound = ImportEditor::bound_name(items[0]);
      pending.fix = {ImportEditor::replace_module(statement, "torchao.quantization.pt2e")};
      pending.imports = {"torchao.quantization.pt2e", std::string(kTorchaoPt2e)};
      pending.binding = context.model().binding_created_by(bound.text(), statement);
    }
  }

  std::vector<std::string> prefixes_;
  std::vector<Pending> pending_;
  std::vector<Use> uses_;
  std::set<const python::Binding*> unsupported_uses_;
  std::optional<bool> mentions_pt2e_;  // of this check's file, tested on its first identifier
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_ao_quantization_check(const engine::RuleSpec& rule) {
  return std::make_unique<AoQuantizationCheck>(rule);
}

}  // namespace torchmigrate::checks
