// SPDX-License-Identifier: MIT
// Family `keyword-only-arguments`: a method whose parameters became keyword-only, called with
// positional arguments (`t.__dlpack__(s)` when `__dlpack__(self, *, stream=None)`). Receivers
// bound from calls of other array libraries (NumPy, CuPy, JAX) are skipped; a receiver known to
// be a tensor gets the rule's severity, an unknown one `unknown_severity`. The fix names each
// positional argument with its keyword.
#include "torchmigrate/checks/python_checks.hpp"

#include <map>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

enum class Receiver { Tensor, Other, Unknown };

bool in_modules(const std::string& qualified, const std::vector<std::string>& modules) {
  for (const std::string& module : modules) {
    if (qualified == module || qualified.starts_with(module + ".")) return true;
  }
  return false;
}

class KeywordOnlyArgumentsCheck final : public engine::PythonCheck {
 public:
  explicit KeywordOnlyArgumentsCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const Params& method : params.objects("methods")) {
      methods_[method.string("name")] = method.strings("keywords");
      method.finish();
    }
    tensor_modules_ = params.strings("tensor_modules");
    other_modules_ = params.strings("other_modules");
    unknown_severity_ = static_cast<Severity>(params.choice("unknown_severity", {"error", "warning", "info"}));
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  // Not statement-local: a receiver's kind may come from an assignment in another statement.

  void visit(Node call, PythonCheckContext& context) override {
    Node function = call.field("function");
    if (!function || function.kind() != "attribute") return;
    auto method = methods_.find(function.field("attribute").text());
    if (method == methods_.end()) return;
    CallArguments arguments(call);
    if (!arguments.valid() || arguments.positional().empty()) return;
    Receiver receiver = kind_of(strip_parentheses(function.field("object")), context.model());
    if (receiver == Receiver::Other) return;
    const std::vector<std::string>& keywords = method->second;
    const std::vector<Node>& positional = arguments.positional();
    std::string names;
    for (size_t i = 0; i < positional.size() && i < keywords.size(); ++i) {
      names += (names.empty() ? "`" : ", `") + keywords[i] + "`";
    }
    if (positional.size() > keywords.size()) names = std::to_string(positional.size()) + " arguments";
    Diagnostic& diagnostic =
        context.report(rule(), {positional.front().start(), positional.back().end()},
                       {{"method", method->first},
                        {"keywords", names},
                        {"receiver", single_line(function.field("object"))},
                        {"note", receiver == Receiver::Unknown ? "; the receiver's type is not known here" : ""}});
    if (receiver == Receiver::Unknown) diagnostic.severity = unknown_severity_;
    if (positional.size() > keywords.size() || arguments.has_star_args()) return;
    std::vector<Edit> edits;
    for (size_t i = 0; i < positional.size(); ++i)
      edits.push_back(Edit::insert(positional[i].start(), keywords[i] + "="));
    std::string title = "Pass " + names + " by keyword";
    diagnostic.fixes.push_back(rule_fix(rule(), title, std::move(edits), Applicability::Safe));
  }

 private:
  // What the receiver is: a call's result or a name bound by one assignment or annotated parameter.
  [[nodiscard]] Receiver kind_of(Node receiver, const python::SemanticModel& model) const {
    if (!receiver) return Receiver::Unknown;
    if (receiver.kind() == "call") return kind_of_qualified(model.resolve_call(receiver));
    if (receiver.kind() != "identifier") return Receiver::Unknown;
    std::vector<const python::Binding*> bindings = model.reaching_bindings(receiver.text(), receiver);
    if (bindings.size() != 1 || bindings.front()->kind != python::BindingKind::Local) return Receiver::Unknown;
    Node bound = bindings.front()->node;
    if (bound && bound.kind() == "assignment" && bound.field("left").kind() == "identifier") {
      Node right = strip_parentheses(bound.field("right"));
      if (right && right.kind() == "call") return kind_of_qualified(model.resolve_call(right));
    }
    if (bound && (bound.kind() == "typed_parameter" || bound.kind() == "typed_default_parameter")) {
      return kind_of_qualified(model.resolve(bound.field("type").named_child(0)));
    }
    return Receiver::Unknown;
  }

  [[nodiscard]] Receiver kind_of_qualified(const std::optional<std::string>& qualified) const {
    if (!qualified) return Receiver::Unknown;
    if (in_modules(*qualified, other_modules_)) return Receiver::Other;
    if (in_modules(*qualified, tensor_modules_)) return Receiver::Tensor;
    return Receiver::Unknown;
  }

  std::map<std::string, std::vector<std::string>, std::less<>> methods_;  // name -> keyword per position
  std::vector<std::string> tensor_modules_;
  std::vector<std::string> other_modules_;
  Severity unknown_severity_ = Severity::Warning;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_keyword_only_arguments_check(const engine::RuleSpec& rule) {
  return std::make_unique<KeywordOnlyArgumentsCheck>(rule);
}

}  // namespace torchmigrate::checks
