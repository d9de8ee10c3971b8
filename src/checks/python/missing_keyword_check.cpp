// SPDX-License-Identifier: MIT
// Family `missing-keyword`: a call to one of the listed torch functions that does not pass a
// keyword whose default changed. Two fixes: keep-old pins the 2.7 value, adopt-new the 2.8 one.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

class MissingKeywordCheck final : public engine::PythonCheck {
 public:
  explicit MissingKeywordCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) {
      callees_.insert(callee);
      last_names_.insert(callee.substr(callee.rfind('.') + 1));
    }
    keyword_ = params.string("keyword");
    keep_old_ = params.string("keep_old");
    if (params.has("old_default")) old_default_ = params.string("old_default");
    adopt_new_ = params.string("adopt_new");
    if (params.has("positional_index")) positional_index_ = params.integer("positional_index");
    none_is_default_ = params.boolean("none_is_default", false);
    if (params.has("only_when_absent_or")) {
      const Params condition = params.object("only_when_absent_or");
      condition_keyword_ = condition.string("keyword");
      condition_values_ = condition.strings("values");
      condition.finish();
    }
    if (params.has("trusted_argument")) {
      const Params trusted = params.object("trusted_argument");
      trusted_position_ = trusted.integer("position");
      trusted_keywords_ = trusted.strings("keywords");
      trusted_prefixes_ = trusted.strings("prefixes");
      trusted.finish();
    }
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  // A finding is one call: what its callee resolves to and its own arguments.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node call, PythonCheckContext& context) override {
    if (!callee_may_end_in(call, last_names_)) return;  // most calls: no look-up at all
    // A name bound in both branches of an `if` may stand for several functions.
    std::vector<std::optional<std::string>> possible = context.model().resolve_call_all(call);
    std::string callee;
    size_t affected = 0;
    for (const std::optional<std::string>& name : possible) {
      if (!name || !callees_.count(*name)) continue;
      callee += (callee.empty() ? "" : "` or `") + *name;
      ++affected;
    }
    if (affected == 0) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    // `keyword=None` where the callee reads None as "use the default" is as good as absent.
    Node given = arguments.keyword_value(keyword_);
    if (given && !(none_is_default_ && is_literal(given, "None"))) return;
    if (positional_index_ && (arguments.positional().size() > *positional_index_)) return;
    if (!condition_keyword_.empty() && !condition_holds(arguments)) return;
    if (!trusted_prefixes_.empty() && trusted(arguments)) return;

    std::map<std::string, std::string> values{{"callee", callee}, {"keyword", keyword_}};
    Diagnostic& diagnostic = context.report(rule(), call.range(), values);
    if (affected < possible.size()) {
      // The fix is only right when every function the name may stand for takes the keyword.
      diagnostic.message += "; `" + std::string(call.field("function").text()) +
                            "` may also refer to something else, so this is uncertain and no fix is offered";
      return;
    }
    if (given) {
      diagnostic.message += "; `" + keyword_ + "=None` selects that default";
      diagnostic.fixes.push_back(make_fix(arguments, given, keep_old_, FixPolicy::KeepOld, keep_old_reason()));
      diagnostic.fixes.push_back(make_fix(arguments, given, adopt_new_, FixPolicy::AdoptNew,
                                          "adopt the " + rule().release.to.str() + " default"));
      return;
    }
    if (arguments.has_star_kwargs() || (positional_index_ && arguments.has_star_args())) {
      diagnostic.message += "; `" + keyword_ + "` may come from `**kwargs`, so no fix is offered";
      return;
    }
    diagnostic.fixes.push_back(make_fix(arguments, Node{}, keep_old_, FixPolicy::KeepOld, keep_old_reason()));
    diagnostic.fixes.push_back(make_fix(arguments, Node{}, adopt_new_, FixPolicy::AdoptNew,
                                        "adopt the " + rule().release.to.str() + " default"));
  }

 private:
  // The rule only applies while the condition keyword is absent or has one of the values.
  bool condition_holds(const CallArguments& arguments) const {
    Node value = arguments.keyword_value(condition_keyword_);
    if (!value) return true;
    for (const std::string& expected : condition_values_) {
      if (value.text() == expected) return true;
    }
    return false;
  }

  // "keep the 2.10 behaviour", naming the old default when keep-old writes another value for it.
  std::string keep_old_reason() const {
    std::string reason = "keep the " + rule().release.from.str() + " behaviour";
    if (!old_default_.empty()) reason += " of its default `" + old_default_ + "`";
    return reason;
  }

  // The argument naming what the call acts on is a string the new default already trusts.
  bool trusted(const CallArguments& arguments) const {
    Node value;
    if (trusted_position_ < arguments.positional().size()) value = arguments.positional()[trusted_position_];
    for (const std::string& keyword : trusted_keywords_) {
      if (!value) value = arguments.keyword_value(keyword);
    }
    std::optional<std::string> text = value ? plain_string(value) : std::nullopt;
    if (!text) return false;
    return std::any_of(trusted_prefixes_.begin(), trusted_prefixes_.end(),
                       [&](const std::string& prefix) { return text->starts_with(prefix); });
  }

  // Adds `keyword=value`, or replaces the `None` already given (`given`).
  Fix make_fix(const CallArguments& arguments, Node given, const std::string& value, FixPolicy policy,
               const std::string& why) const {
    Fix fix = rule_fix(rule(), std::string(given ? "Pass" : "Add") + " `" + keyword_ + "=" + value + "` to " + why,
                       {given ? Edit::replace(given.range(), value) : arguments.add_keyword(keyword_, value)},
                       Applicability::Safe);
    fix.policy = policy;
    // Pinning the old value never changes behaviour (the catalog's safety); writing the new one
    // is a decision, so at best unsafe.
    if (policy != FixPolicy::KeepOld) fix.applicability = least_safe(fix.applicability, Applicability::Unsafe);
    return fix;
  }

  std::set<std::string> callees_;
  std::set<std::string, std::less<>> last_names_;  // of `callees_`
  std::string keyword_, keep_old_, adopt_new_;
  std::string old_default_;  // the old default, when `keep_old_` is another value that behaves as it did
  std::optional<size_t> positional_index_;
  bool none_is_default_ = false;
  std::string condition_keyword_;
  std::vector<std::string> condition_values_;
  size_t trusted_position_ = 0;
  std::vector<std::string> trusted_keywords_, trusted_prefixes_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_missing_keyword_check(const engine::RuleSpec& rule) {
  return std::make_unique<MissingKeywordCheck>(rule);
}

}  // namespace torchmigrate::checks
