// SPDX-License-Identifier: MIT
// TM303: `torch.onnx.dynamo_export(model, *args, **kwargs)` is deprecated; the same export is
// `torch.onnx.export(model, (args,), kwargs={...}, dynamo=True)`. A from-imported name is renamed
// (through `python::ImportEditor`) together with every use, or not at all.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <variant>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::ImportEditor;
using python::Node;

// Edits for one call, or why it cannot be rewritten.
using CallRewrite = std::variant<std::vector<Edit>, std::string>;

bool is_callee(Node node) {
  Node parent = node.parent();
  return parent && parent.kind() == "call" && parent.field("function") == node;
}

// `dynamo_export(model, /, *model_args, export_options=None, **model_kwargs)`: the model is
// positional-only, every other positional argument goes into the `args` tuple and every keyword
// but `export_options` into `kwargs`.
CallRewrite rewrite_arguments(Node call) {
  Node list = call.field("arguments");
  if (!list || list.kind() != "argument_list") return std::string("the call has no plain argument list");
  std::vector<Node> arguments;
  for (uint32_t i = 0; i < list.named_child_count(); ++i) {
    Node argument = list.named_child(i);
    if (argument.kind() != "comment") arguments.push_back(argument);
  }
  for (Node argument : arguments) {
    if (argument.kind() == "dictionary_splat") return std::string("`export_options` may come from `**kwargs`");
    if (argument.kind() == "keyword_argument" && argument.field("name").text() == "export_options") {
      return std::string("`export_options` has no direct equivalent (pass `dynamic_shapes=` to `torch.onnx.export`)");
    }
  }
  auto is_keyword = [](Node node) { return node.kind() == "keyword_argument"; };
  if (arguments.empty() || is_keyword(arguments[0]) || arguments[0].kind() == "list_splat") {
    return std::string("the model is not passed as the first positional argument");
  }
  std::vector<Node> positional, keywords;
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (is_keyword(arguments[i])) {
      keywords.push_back(arguments[i]);
    } else if (!keywords.empty()) {
      return std::string("a positional argument follows a keyword argument");
    } else {
      positional.push_back(arguments[i]);
    }
  }

  std::vector<Edit> edits;
  // A single element needs the trailing comma to stay a tuple: `(x,)`.
  const char* close_tuple = positional.size() == 1 ? ",)" : ")";
  if (!positional.empty()) {
    edits.push_back(Edit::insert(positional.front().start(), "("));
    if (!keywords.empty()) edits.push_back(Edit::insert(positional.back().end(), close_tuple));
  }
  for (size_t i = 0; i < keywords.size(); ++i) {
    Node name = keywords[i].field("name");
    Node value = keywords[i].field("value");
    std::string key(i == 0 ? "kwargs={\"" : "\"");
    key.append(name.text()).append("\": ");
    edits.push_back(Edit::replace({name.start(), value.start()}, std::move(key)));
  }
  // Inserted after the last argument: whatever closes the tuple or dict, then the keyword.
  const char* closing = !keywords.empty() ? "}" : !positional.empty() ? close_tuple : "";
  edits.push_back(Edit::insert(arguments.back().end(), std::string(closing).append(", dynamo=True")));
  return edits;
}

class OnnxDynamoExportCheck final : public engine::PythonCheck {
 public:
  explicit OnnxDynamoExportCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    target_ = params.string("callee");
    new_name_ = params.string("new_name");
    params.finish();
    size_t dot = target_.rfind('.');
    module_ = target_.substr(0, dot);
    old_name_ = target_.substr(dot + 1);
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"import_from_statement", "attribute", "identifier"};
  }

  void visit(Node node, PythonCheckContext& context) override {
    std::string_view kind = node.kind();
    if (kind == "import_from_statement") {
      visit_import(node, context);
      return;
    }
    if (kind == "identifier" && !is_reference_identifier(node)) return;
    if (kind == "attribute" && !is_outermost_attribute(node)) return;
    std::optional<std::string> qualified = context.model().resolve(node);
    if (!qualified || *qualified != target_) return;
    Use use{node, is_callee(node) ? node.parent() : Node{}, nullptr};
    if (kind == "identifier") {
      use.binding = context.model().lookup(node.text(), node);
      // A name bound inside compatibility code is itself compatibility code.
      if (use.binding != nullptr && python::is_compat_guarded(use.binding->node, context.model())) return;
    }
    uses_.push_back(use);
  }

  void finish(PythonCheckContext& context) override {
    std::vector<const Use*> grouped;
    for (const ImportItem& item : imports_) {
      std::vector<const Use*> members;
      for (const Use& use : uses_) {
        if (item.binding != nullptr && use.binding == item.binding) members.push_back(&use);
      }
      grouped.insert(grouped.end(), members.begin(), members.end());
      CallRewrite group = group_rewrite(item, members, context);
      for (const Use* member : members) report(member->call ? member->call : member->node, group, context);
      report(item.statement, group, context);
    }
    for (const Use& use : uses_) {
      if (std::find(grouped.begin(), grouped.end(), &use) != grouped.end()) continue;
      report(use.call ? use.call : use.node, standalone_rewrite(use), context);
    }
  }

 private:
  struct Use {
    Node node;  // identifier or attribute
    Node call;  // the call when `node` is its callee
    const python::Binding* binding = nullptr;
  };
  struct ImportItem {
    Node statement;
    Node item;  // dotted_name or aliased_import
    const python::Binding* binding = nullptr;
  };

  void visit_import(Node statement, PythonCheckContext& context) {
    Node module = statement.field("module_name");
    if (!module || module.kind() != "dotted_name" || module.text() != module_) return;
    for (Node item : statement.children_of_field("name")) {
      if (ImportEditor::imported_name(item).text() != old_name_) continue;
      const python::Binding* binding =
          context.model().binding_created_by(ImportEditor::bound_name(item).text(), statement);
      imports_.push_back({statement, item, binding});
    }
  }

  // An attribute chain (`torch.onnx.dynamo_export(...)`) is fixed on its own.
  [[nodiscard]] CallRewrite standalone_rewrite(const Use& use) const {
    if (!use.call) return std::string("it is not called here");
    if (use.node.kind() != "attribute") return std::string("it is called through an alias");
    CallRewrite rewrite = rewrite_arguments(use.call);
    if (auto* edits = std::get_if<std::vector<Edit>>(&rewrite)) {
      edits->push_back(Edit::replace(use.node.field("attribute").range(), new_name_));
    }
    return rewrite;
  }

  // `from torch.onnx import dynamo_export [as alias]`: the import and all its calls change together.
  CallRewrite group_rewrite(const ImportItem& item, const std::vector<const Use*>& members,
                            PythonCheckContext& context) const {
    std::vector<Node> uses;
    for (const Use* member : members) uses.push_back(member->node);
    python::ImportChange change = ImportEditor(context.model()).rename_name(item.item, new_name_, uses);
    if (!change) return change.conflict;
    bool aliased = item.item.kind() == "aliased_import";
    std::vector<Edit> edits = std::move(change.edits);
    for (const Use* member : members) {
      if (!member->call) {
        std::string reason("`");
        return reason.append(member->node.text()).append("` is also used without being called");
      }
      CallRewrite rewrite = rewrite_arguments(member->call);
      if (auto* reason = std::get_if<std::string>(&rewrite)) {
        std::string why("another call of `");
        return why.append(member->node.text()).append("` cannot be rewritten: ").append(*reason);
      }
      auto& call_edits = std::get<std::vector<Edit>>(rewrite);
      edits.insert(edits.end(), call_edits.begin(), call_edits.end());
      if (!aliased) edits.push_back(Edit::replace(member->node.range(), change.name));
    }
    return edits;
  }

  void report(Node where, const CallRewrite& rewrite, PythonCheckContext& context) const {
    Diagnostic& diagnostic = context.report(rule(), where.range(), {{"name", target_}});
    if (const auto* reason = std::get_if<std::string>(&rewrite)) {
      diagnostic.message += "; no fix: " + *reason;
      return;
    }
    if (!rule().fix_applicability) return;
    Fix fix;
    fix.title = "Replace with `torch.onnx.export(..., dynamo=True)`";
    fix.edits = std::get<std::vector<Edit>>(rewrite);
    fix.applicability = *rule().fix_applicability;
    fix.compat = rule().fix_compat;
    diagnostic.fixes.push_back(std::move(fix));
  }

  std::string target_, new_name_, module_, old_name_;
  std::vector<Use> uses_;
  std::vector<ImportItem> imports_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_onnx_dynamo_export_check(const engine::RuleSpec& rule) {
  return std::make_unique<OnnxDynamoExportCheck>(rule);
}

}  // namespace torchmigrate::checks
