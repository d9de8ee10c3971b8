// SPDX-License-Identifier: MIT
// Family `renamed-env-var`: an environment variable torch renamed, with its value mapped. An
// "on" value becomes the new variable with its new value; an "off" value (the old default) is
// deleted, leaving the surrounding instruction or command valid.
#include <algorithm>
#include <cctype>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using buildfiles::FileKind;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

class RenamedEnvVarCheck final : public engine::FileCheck {
 public:
  explicit RenamedEnvVarCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    old_name_ = params.string("old");
    new_name_ = params.string("new");
    new_on_value_ = params.string("new_on_value");
    on_values_ = params.strings("on_values");
    loose_on_values_ = params.strings("loose_on_values");
    off_values_ = params.strings("off_values");
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const buildfiles::BuildFile& file = context.build_file();
    // The variable is set at run time: shell, containers, CI, env files.
    if (!sets_run_environment(file.kind)) return;
    for (const buildfiles::Assignment& assignment : buildfiles::find_assignments(file, {old_name_})) {
      std::string value = lower(assignment.value);
      Diagnostic& diagnostic =
          context.report(rule(), assignment.name_range, {{"old", old_name_}, {"new", new_name_ + "=" + new_on_value_}});
      if (contains(on_values_, value)) {
        diagnostic.fixes.push_back(rename(assignment));
      } else if (contains(loose_on_values_, value)) {
        diagnostic.message += "; torch " + rule().release.from.str() + " only read `1` as on, so `" + assignment.value +
                              "` kept the default there and the fix (unsafe) turns the option on";
        // A value the old release read differently makes the catalog's safety unsafe at least.
        Fix fix = rename(assignment);
        fix.applicability = least_safe(fix.applicability, Applicability::Unsafe);
        diagnostic.fixes.push_back(std::move(fix));
      } else if (contains(off_values_, value) && !assignment.value_range.empty()) {
        if (!assignment.removal) {
          diagnostic.message += "; it cannot be deleted here without leaving invalid syntax, so no fix is offered";
          continue;
        }
        diagnostic.fixes.push_back(rule_fix(rule(),
                                            "Remove the assignment (`" + assignment.value + "` was the default)",
                                            {Edit::remove(*assignment.removal)}, Applicability::Safe));
      } else {
        diagnostic.message += "; its value is not a literal on/off value, so no fix is offered";
      }
    }
  }

 private:
  [[nodiscard]] Fix rename(const buildfiles::Assignment& assignment) const {
    std::string value = assignment.value_quoted ? std::string(1, assignment.quote) + new_on_value_ + assignment.quote
                                                : new_on_value_;
    return rule_fix(rule(), "Replace with `" + new_name_ + "=" + new_on_value_ + "`",
                    {Edit::replace(assignment.name_range, new_name_), Edit::replace(assignment.value_range, value)},
                    Applicability::Safe);
  }

  std::string old_name_, new_name_, new_on_value_;
  std::vector<std::string> on_values_, loose_on_values_, off_values_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_renamed_env_var_check(const engine::RuleSpec& rule) {
  return std::make_unique<RenamedEnvVarCheck>(rule);
}

}  // namespace torchmigrate::checks
