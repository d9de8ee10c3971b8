// SPDX-License-Identifier: MIT
// Family `constructed-object-method`: a method called on an object that a listed torch
// constructor made in the same scope, `x = ctor(...)` or `with ctor(...) as x` (TM322:
// `torch.profiler.profile(...).export_memory_timeline`). Reported without a fix.
#include <map>
#include <memory>
#include <set>
#include <string>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

class ConstructedObjectMethodCheck final : public engine::PythonCheck {
 public:
  explicit ConstructedObjectMethodCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("constructors")) constructors_.insert(name);
    for (const std::string& name : params.strings("methods")) methods_.insert(name);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    Node function = call.field("function");
    if (function.kind() != "attribute" || !methods_.contains(function.field("attribute").text())) return;
    Node receiver = function.field("object");
    if (receiver.kind() != "identifier") return;
    const python::Binding* binding = context.model().lookup(receiver.text(), receiver);
    if (binding == nullptr || binding->kind != python::BindingKind::Local || !binding->node) return;
    Node value = made_by(binding->node, receiver.text());
    if (!value || value.kind() != "call") return;
    std::optional<std::string> constructor = context.model().resolve_call(value);
    if (!constructor || !constructors_.contains(*constructor)) return;
    context.report(rule(), call.range(),
                   {{"name", *constructor}, {"method", std::string(function.field("attribute").text())}});
  }

 private:
  // The expression whose value `name` holds: the right side of `name = ...` or the context
  // manager of `with ... as name` (its `__enter__` returns the object for these constructors).
  static Node made_by(Node binder, std::string_view name) {
    if (binder.kind() == "assignment") {
      Node left = binder.field("left");
      return left && left.kind() == "identifier" && left.text() == name ? binder.field("right") : Node();
    }
    if (binder.kind() == "as_pattern" && binder.named_child_count() >= 2) {
      Node alias = binder.field("alias");
      Node target = alias && alias.named_child_count() == 1 ? alias.named_child(0) : alias;
      return target && target.kind() == "identifier" && target.text() == name ? binder.named_child(0) : Node();
    }
    return {};
  }

  std::set<std::string, std::less<>> constructors_;
  std::set<std::string, std::less<>> methods_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_constructed_object_method_check(const engine::RuleSpec& rule) {
  return std::make_unique<ConstructedObjectMethodCheck>(rule);
}

}  // namespace torchmigrate::checks
