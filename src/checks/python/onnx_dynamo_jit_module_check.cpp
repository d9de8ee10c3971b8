// SPDX-License-Identifier: MIT
// TM105: `torch.onnx.export(m, ..., dynamo=True)` where `m` is a ScriptModule made by
// `torch.jit.script/trace/load` (directly or through a local assigned in the same scope); with
// `absent_means_dynamo` (torch 2.9, whose default is `dynamo=True`) also a call without `dynamo=`.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

class OnnxDynamoJitModuleCheck final : public engine::PythonCheck {
 public:
  explicit OnnxDynamoJitModuleCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("exporters")) exporters_.insert(callee);
    for (const std::string& callee : params.strings("script_producers")) producers_.insert(callee);
    for (const std::string& method : params.strings("same_module_methods")) same_module_methods_.insert(method);
    absent_means_dynamo_ = params.boolean("absent_means_dynamo", false);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !exporters_.count(*callee)) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    Node dynamo = arguments.keyword_value("dynamo");
    // Without `dynamo=` the default decides, unless `**kwargs` may carry it.
    bool dynamo_export = dynamo ? is_literal(dynamo, "True") : absent_means_dynamo_ && !arguments.has_star_kwargs();
    if (!dynamo_export) return;
    Node model = arguments.keyword_value("model");
    if (!model && !arguments.positional().empty()) model = arguments.positional().front();
    if (!model) return;
    std::optional<std::string> producer = script_module_producer(model, call, context);
    if (!producer) return;
    context.report(rule(), call.range(), {{"callee", *callee}, {"producer", *producer}});
  }

 private:
  // The `torch.jit.*` function whose result `expression` is, if it is one.
  std::optional<std::string> script_module_producer(Node expression, Node call, PythonCheckContext& context) const {
    expression = strip_parentheses(expression);
    if (expression.kind() == "identifier") return through_local(expression, call, context);
    if (expression.kind() != "call") return std::nullopt;
    std::optional<std::string> callee = context.model().resolve_call(expression);
    if (callee && producers_.count(*callee)) return callee;
    // `torch.jit.script(net).eval()` is still the ScriptModule.
    Node function = expression.field("function");
    if (function.kind() == "attribute" && same_module_methods_.count(std::string(function.field("attribute").text()))) {
      return script_module_producer(function.field("object"), call, context);
    }
    return std::nullopt;
  }

  // `m = torch.jit.script(net)` earlier in the same scope as the export call.
  std::optional<std::string> through_local(Node name, Node call, PythonCheckContext& context) const {
    const python::Binding* binding = context.model().lookup(name.text(), name);
    if (binding == nullptr || binding->kind != python::BindingKind::Local) return std::nullopt;
    Node assignment = binding->node;
    if (assignment.kind() != "assignment" || binding->position > call.start()) return std::nullopt;
    Node left = assignment.field("left");
    Node right = assignment.field("right");
    if (!left || !right || left.kind() != "identifier" || left.text() != name.text()) return std::nullopt;
    if (context.model().scope_at(assignment.start()) != context.model().scope_at(call.start())) return std::nullopt;
    // Only a direct producer call: a second hop through another local would be a guess.
    if (right.kind() == "identifier") return std::nullopt;
    return script_module_producer(right, call, context);
  }

  std::set<std::string> exporters_;
  std::set<std::string> producers_;
  std::set<std::string> same_module_methods_;
  bool absent_means_dynamo_ = false;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_onnx_dynamo_jit_module_check(const engine::RuleSpec& rule) {
  return std::make_unique<OnnxDynamoJitModuleCheck>(rule);
}

}  // namespace torchmigrate::checks
