// SPDX-License-Identifier: MIT
// TM107: a `torch.autograd.Function` whose `forward` (or `setup_context`) calls
// `ctx.mark_dirty(...)` now raises when a caller passes a view of a leaf that requires grad.
#include "torchmigrate/checks/python_checks.hpp"

#include <set>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// Subclasses of a project's own Function subclass are followed this many levels.
constexpr int kMaxBaseDepth = 8;

class AutogradFunctionMarkDirtyCheck final : public engine::PythonCheck {
 public:
  explicit AutogradFunctionMarkDirtyCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& base : params.strings("bases")) bases_.insert(base);
    for (const std::string& method : params.strings("methods")) methods_.insert(method);
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    Node function = call.field("function");
    if (function.kind() != "attribute" || function.field("attribute").text() != "mark_dirty") return;
    Node receiver = function.field("object");
    Node method = enclosing_function(call);
    if (!method || method.kind() != "function_definition") return;
    if (!methods_.count(std::string(method.field("name").text()))) return;
    // `ctx` is the method's first parameter (forward and setup_context are static methods).
    Node first = parameter_at(method, 0);
    if (!first || !is_parameter_of(context.model(), receiver, method) ||
        context.model().lookup(receiver.text(), receiver)->node != first) {
      return;
    }
    Node klass = class_of(method);
    if (!klass || !derives_from_function(klass, context, kMaxBaseDepth)) return;
    context.report(rule(), call.range(),
                   {{"class", std::string(klass.field("name").text())}, {"method", std::string(method.field("name").text())}});
  }

 private:
  // The class whose body defines `method` directly (possibly under decorators).
  static Node class_of(Node method) {
    Node parent = method.parent();
    if (parent && parent.kind() == "decorated_definition") parent = parent.parent();
    if (!parent || parent.kind() != "block") return {};
    Node klass = parent.parent();
    return klass && klass.kind() == "class_definition" ? klass : Node();
  }

  bool derives_from_function(Node klass, PythonCheckContext& context, int depth) const {
    Node superclasses = klass.field("superclasses");
    if (!superclasses || depth == 0) return false;
    for (uint32_t i = 0; i < superclasses.named_child_count(); ++i) {
      Node base = superclasses.named_child(i);
      if (base.kind() == "keyword_argument") continue;  // metaclass=...
      std::optional<std::string> resolved = context.model().resolve(base);
      if (resolved && bases_.count(*resolved)) return true;
      // `class Base(torch.autograd.Function)` defined in this file, then `class Op(Base)`.
      if (base.kind() == "identifier") {
        const python::Binding* binding = context.model().lookup(base.text(), base);
        if (binding != nullptr && binding->kind == python::BindingKind::Local &&
            binding->node.kind() == "class_definition" && !(binding->node == klass) &&
            derives_from_function(binding->node, context, depth - 1)) {
          return true;
        }
      }
    }
    return false;
  }

  std::set<std::string> bases_;
  std::set<std::string> methods_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_autograd_function_mark_dirty_check(const engine::RuleSpec& rule) {
  return std::make_unique<AutogradFunctionMarkDirtyCheck>(rule);
}

}  // namespace torchmigrate::checks
