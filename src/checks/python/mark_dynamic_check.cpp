// SPDX-License-Identifier: MIT
// TM204: `torch._dynamo.mark_dynamic` now raises when the marked dimension gets specialised.
// The unsafe fix switches to `maybe_mark_dynamic`, which takes only the tensor and the dims.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/python/import_editor.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Binding;
using python::BindingKind;
using python::ImportEditor;
using python::Node;

class MarkDynamicCheck final : public engine::PythonCheck {
 public:
  explicit MarkDynamicCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) callees_.insert(callee);
    new_name_ = params.string("new_name");
    for (const std::string& keyword : params.strings("keywords_kept")) keywords_kept_.insert(keyword);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !callees_.count(*callee)) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    Diagnostic& diagnostic = context.report(rule(), call.range(), {{"callee", *callee}});
    if (arguments.has_star_kwargs()) {
      diagnostic.message += "; `min`, `max` or `specialize_on` may come from `**kwargs`, so no fix is offered";
      return;
    }
    if (Node keyword = extra_keyword(arguments)) {
      diagnostic.message += "; no fix because `" + new_name_ + "` takes no `" +
                            std::string(keyword.field("name").text()) + "=`";
      return;
    }
    std::optional<std::vector<Edit>> edits = rename_callee(call, context);
    if (!edits) return;
    Fix fix;
    fix.title = "Replace with `" + new_name_ + "` (the dimension may then be specialised silently)";
    fix.edits = std::move(*edits);
    fix.applicability = Applicability::Unsafe;
    fix.compat = rule().fix_compat;
    diagnostic.fixes.push_back(std::move(fix));
  }

 private:
  // A keyword `maybe_mark_dynamic` does not accept (`min=`, `max=`, `specialize_on=`, ...).
  Node extra_keyword(const CallArguments& arguments) const {
    Node list = arguments.list();
    for (uint32_t i = 0; i < list.named_child_count(); ++i) {
      Node argument = list.named_child(i);
      if (argument.kind() == "keyword_argument" && !keywords_kept_.count(std::string(argument.field("name").text()))) {
        return argument;
      }
    }
    return {};
  }

  // Whether `qualified` is the new function in one of the modules the old one lives in.
  bool is_new_function(const std::string& qualified) const {
    for (const std::string& callee : callees_) {
      if (qualified == callee.substr(0, callee.rfind('.') + 1) + new_name_) return true;
    }
    return false;
  }

  std::optional<std::vector<Edit>> rename_callee(Node call, PythonCheckContext& context) const {
    Node function = call.field("function");
    if (function.kind() == "attribute") {
      return std::vector<Edit>{Edit::replace(function.field("attribute").range(), new_name_)};
    }
    if (function.kind() != "identifier") return std::nullopt;
    const Binding* binding = context.model().lookup(function.text(), function);
    // `f = torch._dynamo.mark_dynamic` aliases are reported but not rewritten.
    if (binding == nullptr || binding->kind != BindingKind::Import ||
        binding->node.kind() != "import_from_statement") {
      return std::nullopt;
    }
    // Already imported from any module that provides it: reuse it.
    const Binding* existing = context.model().lookup(new_name_, function);
    if (existing != nullptr && existing->kind != BindingKind::Local && is_new_function(existing->qualified_name)) {
      return std::vector<Edit>{Edit::replace(function.range(), new_name_)};
    }
    // Otherwise the new name joins the old one in its import; every call shares these identical edits.
    for (Node item : binding->node.children_of_field("name")) {
      if (ImportEditor::bound_name(item).text() != function.text()) continue;
      std::string_view module = binding->node.field("module_name").text();
      python::ImportChange change = ImportEditor(context.model()).import_name(module, new_name_, function, item);
      if (!change) return std::nullopt;
      change.edits.push_back(Edit::replace(function.range(), change.name));
      return std::move(change.edits);
    }
    return std::nullopt;
  }

  std::set<std::string> callees_;
  std::string new_name_;
  std::set<std::string> keywords_kept_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_mark_dynamic_check(const engine::RuleSpec& rule) {
  return std::make_unique<MarkDynamicCheck>(rule);
}

}  // namespace torchmigrate::checks
