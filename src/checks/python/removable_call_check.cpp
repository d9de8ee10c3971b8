// SPDX-License-Identifier: MIT
// Family `removable-call`: a call of a torch function that is no longer needed, or whose effect
// is going away (TM325: `enable_symm_mem_for_group`; TM324: `preferred_linalg_library("magma")`),
// optionally only with a given argument. Fix: delete the statement that is only this call.
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/statement_edits.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;
using Names = std::set<std::string, std::less<>>;

// An argument the call must pass for it to be reported: by position or keyword, a string literal
// with one of `strings` or an expression resolving to one of `names`.
struct ArgumentFilter {
  std::optional<size_t> index;
  std::optional<std::string> keyword;
  Names strings;
  Names names;
};

class RemovableCallCheck final : public engine::PythonCheck {
 public:
  explicit RemovableCallCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("functions")) functions_.insert(name);
    title_ = params.string("title");
    if (params.has("argument")) {
      Params argument = params.object("argument");
      ArgumentFilter filter;
      if (argument.has("index")) filter.index = argument.integer("index");
      if (argument.has("keyword")) filter.keyword = argument.string("keyword");
      if (argument.has("strings")) {
        for (const std::string& value : argument.strings("strings")) filter.strings.insert(value);
      }
      if (argument.has("names")) {
        for (const std::string& value : argument.strings("names")) filter.names.insert(value);
      }
      argument.finish();
      filter_ = std::move(filter);
    }
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node call, PythonCheckContext& context) override {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || !functions_.contains(*callee)) return;
    if (filter_ && !passes_filter(call, context)) return;
    Diagnostic& diagnostic = context.report(rule(), call.range(), {{"name", *callee}});
    Node statement = enclosing_statement(call);
    std::optional<Edit> edit = statement ? python::remove_statement(statement) : std::nullopt;
    if (!edit || !rule().fix_applicability) return;
    diagnostic.fixes.push_back(rule_fix(rule(), title_, {*edit}, Applicability::Unsafe));
  }

 private:
  [[nodiscard]] bool passes_filter(Node call, PythonCheckContext& context) const {
    CallArguments arguments(call);
    if (!arguments.valid()) return false;
    Node value;
    if (filter_->keyword) value = arguments.keyword_value(*filter_->keyword);
    if (!value && filter_->index && *filter_->index < arguments.positional().size()) {
      value = arguments.positional()[*filter_->index];
    }
    if (!value) return false;
    if (std::optional<std::string> text = plain_string(value)) return filter_->strings.contains(*text);
    std::optional<std::string> resolved = context.model().resolve(value);
    return resolved && filter_->names.contains(*resolved);
  }

  Names functions_;
  std::string title_;
  std::optional<ArgumentFilter> filter_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_removable_call_check(const engine::RuleSpec& rule) {
  return std::make_unique<RemovableCallCheck>(rule);
}

}  // namespace torchmigrate::checks
