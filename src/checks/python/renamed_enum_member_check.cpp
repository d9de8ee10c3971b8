// SPDX-License-Identifier: MIT
// Family `renamed-enum-member`: members of an integer enum renamed without an alias (TM109:
// `DLDeviceType.kDLGPU`). The fix calls the enum with the member's value (`DLDeviceType(2)`),
// which names the same member under either name, so it works on every version.
#include "torchmigrate/checks/python_checks.hpp"

#include <map>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using python::Node;

class RenamedEnumMemberCheck final : public engine::PythonCheck {
 public:
  explicit RenamedEnumMemberCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    enum_name_ = params.string("enum");
    for (const Params& member : params.objects("members")) {
      members_[member.string("name")] = {member.string("new_name"), std::to_string(member.integer("value"))};
      member.finish();
    }
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"attribute", "call"}; }
  // A finding is one attribute or getattr call, and its fix rewrites only that.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node node, engine::PythonCheckContext& context) override {
    if (node.kind() == "attribute") {
      check(node, node.field("object"), node.field("attribute").text(), context);
    } else if (Node name = getattr_name(context.model(), node)) {
      // `getattr(Enum, "old")` raises like the attribute does.
      check(node, CallArguments(node).positional()[0], *plain_string(name), context);
    }
  }

 private:
  // `site` (the attribute or the getattr call) names `member_name` of `enumeration`.
  void check(Node site, Node enumeration, std::string_view member_name, engine::PythonCheckContext& context) const {
    auto member = members_.find(std::string(member_name));
    if (member == members_.end()) return;
    std::optional<std::string> resolved = context.model().resolve(enumeration);
    if (!resolved || *resolved != enum_name_) return;
    const auto& [new_name, value] = member->second;
    std::string replacement = std::string(enumeration.text()) + "(" + value + ")";
    Diagnostic& diagnostic =
        context.report(rule(), site.range(), {{"old", member->first}, {"new", new_name}, {"value", value}});
    diagnostic.fixes.push_back(rule_fix(rule(), "Replace with `" + replacement + "`",
                                        {Edit::replace(site.range(), replacement)}, Applicability::Safe));
  }

  std::string enum_name_;
  std::map<std::string, std::pair<std::string, std::string>> members_;  // old -> (new, value)
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_renamed_enum_member_check(const engine::RuleSpec& rule) {
  return std::make_unique<RenamedEnumMemberCheck>(rule);
}

}  // namespace torchmigrate::checks
