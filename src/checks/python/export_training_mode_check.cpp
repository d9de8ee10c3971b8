// SPDX-License-Identifier: MIT
// TM211: an export call that leaves the exporter to its default and so, from the release where
// that default changed, no longer switches the model to eval mode: reported when nothing earlier
// in the same function (or module script) puts the model in eval mode. A `training=` value the
// new exporter ignores is reported at info. Models handed in by the caller are left alone.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

void replace_all(std::string& text, std::string_view placeholder, std::string_view value) {
  for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
}

bool is_definition(std::string_view kind) {
  return kind == "function_definition" || kind == "lambda" || kind == "class_definition";
}

// The names of a def's or lambda's parameters (`self`, `*args` and `**kwargs` included).
std::set<std::string, std::less<>> parameter_names(Node function) {
  std::set<std::string, std::less<>> names;
  Node parameters = function ? function.field("parameters") : Node();
  if (!parameters) return names;
  python::for_each_named_child(parameters, [&](Node parameter) {
    Node name = parameter;
    while (name && name.kind() != "identifier") name = name.kind() == "comment" ? Node() : name.named_child(0);
    if (name) names.insert(std::string(name.text()));
  });
  return names;
}

// The identifier an attribute chain starts from: `self.net.backbone` -> `self`.
Node root_identifier(Node expression) {
  expression = strip_parentheses(expression);
  while (expression && expression.kind() == "attribute") expression = strip_parentheses(expression.field("object"));
  return expression && expression.kind() == "identifier" ? expression : Node();
}

// Whether `expression` reads one of `names` as a variable (not as an attribute or keyword name).
bool mentions(Node expression, const std::set<std::string, std::less<>>& names) {
  bool found = false;
  python::for_each_node(expression, [&](Node node) {
    if (found) return python::WalkStep::Stop;
    if (node.kind() == "attribute") {
      Node root = root_identifier(node);
      found = root && names.count(root.text()) > 0;
      return python::WalkStep::Skip;
    }
    if (node.kind() == "keyword_argument") {
      found = mentions(node.field("value"), names);
      return python::WalkStep::Skip;
    }
    found = node.kind() == "identifier" && names.count(node.text()) > 0;
    return python::WalkStep::Enter;
  });
  return found;
}

// The texts a finding is made of: `{model}` and `{value}` are filled in.
struct Texts {
  std::string eval_problem;
  std::string eval_fix;
  std::string training_problem;
  std::string training_fix;
};

class ExportTrainingModeCheck final : public engine::PythonCheck {
 public:
  explicit ExportTrainingModeCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("exporters")) exporters_.insert(callee);
    Params model = params.object("model");
    model_index_ = model.integer("index");
    model_keyword_ = model.string("keyword");
    model.finish();
    dynamo_keyword_ = params.string("dynamo_keyword");
    for (const std::string& method : params.strings("eval_methods")) eval_methods_.insert(method);
    train_method_ = params.string("train_method");
    train_keyword_ = params.string("train_keyword");
    for (const std::string& method : params.strings("same_module_methods")) same_module_methods_.insert(method);
    training_keyword_ = params.string("training_keyword");
    for (const std::string& value : params.strings("ignored_training_values")) training_values_.insert(value);
    for (const std::string& value : params.strings("same_mode_training_values")) same_mode_values_.insert(value);
    for (const std::string& producer : params.strings("unreported_producers")) unreported_producers_.insert(producer);
    report_parameters_ = params.boolean("report_parameters", false);
    texts_ = {params.string("eval_problem"), params.string("eval_fix"), params.string("training_problem"),
              params.string("training_fix")};
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  void visit(Node call, PythonCheckContext& context) override {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !exporters_.count(*callee)) return;
    CallArguments arguments(call);
    if (!arguments.valid() || arguments.keyword(dynamo_keyword_)) return;
    Node model = arguments.keyword_value(model_keyword_);
    if (!model && model_index_ < arguments.positional().size()) model = arguments.positional()[model_index_];
    model = strip_parentheses(model);
    Node function = enclosing_function(call);
    Finding finding{
        *callee, model ? single_line(model) : "model", {}, arguments.has_star_kwargs(), static_cast<bool>(function)};
    // An ignored `training=` matters whoever made the model.
    Node training = strip_parentheses(arguments.keyword_value(training_keyword_));
    if (std::optional<std::string> value = training ? context.model().resolve(training) : std::nullopt;
        value && training_values_.count(*value)) {
      finding.value = single_line(training);
      report(arguments.keyword(training_keyword_), finding, texts_.training_problem, texts_.training_fix, context)
          .severity = Severity::Info;
      return;
    }
    // A value that exports the model in its current mode is what the new exporter does anyway.
    if (std::optional<std::string> value = training ? context.model().resolve(training) : std::nullopt;
        value && same_mode_values_.count(*value)) {
      return;
    }
    if (!model || (model.kind() != "identifier" && model.kind() != "attribute")) return;
    if (!made_here(model, call, context)) return;
    if (!report_parameters_ && from_caller(model, call, function, context)) return;
    if (made_by_unreported_producer(model, call, context)) return;
    if (set_to_eval_before(finding.model, call, function)) return;
    report(model, finding, texts_.eval_problem, texts_.eval_fix, context);
  }

 private:
  struct Finding {
    std::string callee;
    std::string model;
    std::string value;
    bool star_kwargs = false;
    bool in_function = false;
  };

  Diagnostic& report(Node at, const Finding& finding, std::string problem, std::string fix_title,
                     PythonCheckContext& context) const {
    for (std::string* text : {&problem, &fix_title}) {
      replace_all(*text, "{model}", finding.model);
      replace_all(*text, "{value}", finding.value);
      replace_all(*text, "{scope}", finding.in_function ? "this function" : "the module's top-level code");
    }
    Diagnostic& diagnostic = context.report(rule(), at.range(), {{"callee", finding.callee}, {"problem", problem}});
    if (finding.star_kwargs) {
      diagnostic.message += "; `" + dynamo_keyword_ + "` may come from `**kwargs`, so no fix is offered";
      return diagnostic;
    }
    Fix fix = rule_fix(rule(), std::move(fix_title), {}, Applicability::DisplayOnly);
    fix.applicability = Applicability::DisplayOnly;  // advice with no edit, whatever the catalog's safety
    diagnostic.fixes.push_back(std::move(fix));
    return diagnostic;
  }

  // A model the enclosing function got from its caller, who may have set its mode: a parameter
  // (re-bound or not), an attribute of one, or a local made from one (`Wrapper(model)`).
  static bool from_caller(Node model, Node call, Node function, PythonCheckContext& context) {
    std::set<std::string, std::less<>> parameters = parameter_names(function);
    if (parameters.empty()) return false;
    Node root = root_identifier(model);
    if (!root) return false;
    if (parameters.count(root.text())) return true;
    if (model.kind() != "identifier") return false;
    for (const python::Binding* binding : context.model().reaching_bindings(model.text(), call)) {
      Node node = binding->node;
      if (node.kind() == "assignment" && mentions(node.field("right"), parameters)) return true;
    }
    return false;
  }

  // A model this file binds: its name (or its attribute chain's root) is assigned, not imported or
  // unknown here.
  static bool made_here(Node model, Node call, PythonCheckContext& context) {
    Node root = root_identifier(model);
    if (!root) return false;
    std::vector<const python::Binding*> bindings = context.model().reaching_bindings(root.text(), call);
    return !bindings.empty() && std::all_of(bindings.begin(), bindings.end(), [](const python::Binding* binding) {
      return binding->kind == python::BindingKind::Local;
    });
  }

  // A local holding an exported program (`ep = torch.export.export(...)`, `.run_decompositions()`)
  // or another result the rule leaves alone.
  bool made_by_unreported_producer(Node model, Node call, PythonCheckContext& context) const {
    if (model.kind() != "identifier") return false;
    for (const python::Binding* binding : context.model().reaching_bindings(model.text(), call)) {
      if (binding->node.kind() != "assignment") continue;
      for (Node value = strip_parentheses(binding->node.field("right")); value && value.kind() == "call";) {
        std::optional<std::string> callee = context.model().resolve_call(value);
        if (callee && unreported_producers_.count(*callee)) return true;
        Node function = value.field("function");
        value = function.kind() == "attribute" ? strip_parentheses(function.field("object")) : Node();
      }
    }
    return false;
  }

  // `m.eval()`, `m.train(False)`, `m = m.eval()`, `m = Model(...).eval()` before `call`, in the
  // body of `function` (the module's script code when null), nested definitions left out.
  bool set_to_eval_before(const std::string& model, Node call, Node function) const {
    Node scope = function ? function.field("body") : call;
    while (!function && scope.parent()) scope = scope.parent();
    bool found = false;
    python::for_each_node(scope, [&](Node node) {
      if (found || node.start() >= call.start()) return python::WalkStep::Stop;
      if (is_definition(node.kind())) return python::WalkStep::Skip;
      if (node.kind() == "call") {
        Node callee = node.field("function");
        found = callee.kind() == "attribute" && single_line(callee.field("object")) == model && sets_eval(node);
      } else if (node.kind() == "assignment" && node.field("left") && node.field("right")) {
        found = single_line(node.field("left")) == model && eval_chain(node.field("right"));
      }
      return python::WalkStep::Enter;
    });
    return found;
  }

  // `x.eval()`, `x.train(False)`, `x.train(mode=False)`.
  bool sets_eval(Node call) const {
    std::string_view method = call.field("function").field("attribute").text();
    if (eval_methods_.count(method)) return true;
    if (method != train_method_) return false;
    CallArguments arguments(call);
    if (!arguments.valid()) return false;
    Node mode = arguments.keyword_value(train_keyword_);
    if (!mode && !arguments.positional().empty()) mode = arguments.positional().front();
    return mode && is_literal(strip_parentheses(mode), "False");
  }

  // `Model(...).eval()`, `m.eval().to(device)`: a chain of module methods with an eval among them.
  bool eval_chain(Node expression) const {
    for (expression = strip_parentheses(expression); expression && expression.kind() == "call";) {
      Node callee = expression.field("function");
      if (callee.kind() != "attribute") return false;
      if (sets_eval(expression)) return true;
      if (!same_module_methods_.count(callee.field("attribute").text())) return false;
      expression = strip_parentheses(callee.field("object"));
    }
    return false;
  }

  std::set<std::string, std::less<>> exporters_;
  size_t model_index_ = 0;
  std::string model_keyword_;
  std::string dynamo_keyword_;
  std::set<std::string, std::less<>> eval_methods_;
  std::string train_method_;
  std::string train_keyword_;
  std::set<std::string, std::less<>> same_module_methods_;
  std::string training_keyword_;
  std::set<std::string, std::less<>> training_values_;
  std::set<std::string, std::less<>> same_mode_values_;
  std::set<std::string, std::less<>> unreported_producers_;
  bool report_parameters_ = false;
  Texts texts_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_export_training_mode_check(const engine::RuleSpec& rule) {
  return std::make_unique<ExportTrainingModeCheck>(rule);
}

}  // namespace torchmigrate::checks
