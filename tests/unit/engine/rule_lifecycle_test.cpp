// SPDX-License-Identifier: MIT
// Where a rule stands for a project: each kind against the project's oldest supported torch and
// its target, the notes a finding gains, and the catalog's targets.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"

using namespace torchmigrate::engine;
using torchmigrate::TorchVersion;

namespace {

RuleSpec rule_of(RuleKind kind, const char* since, const char* removed_in = nullptr,
                 RuleImpact impact = RuleImpact::Breaks) {
  RuleSpec rule;
  rule.kind = kind;
  rule.impact = impact;
  rule.since_release = TorchVersion::parse(since);
  if (removed_in != nullptr) rule.removed_release = TorchVersion::parse(removed_in);
  return rule;
}

RuleStanding at(const RuleSpec& rule, const char* min, const char* target) {
  return standing_of(rule, TorchVersion::parse(min), TorchVersion::parse(target));
}

}  // namespace

TEST_CASE("a removal is reported once the target reaches it, whatever the range") {
  RuleSpec removed = rule_of(RuleKind::Removed, "2.8");
  CHECK_FALSE(at(removed, "2.7", "2.7").reported);
  CHECK(at(removed, "2.5", "2.8").reported);
  CHECK_FALSE(at(removed, "2.5", "2.8").already_fails);
  RuleStanding past = at(removed, "2.8", "2.8");
  CHECK(past.reported);
  CHECK(past.already_fails);
  CHECK(standing_note(removed, past, TorchVersion{2, 8}) ==
        "; this already fails on every supported torch (the project supports torch >= 2.8)");
  CHECK(at(rule_of(RuleKind::Renamed, "2.8"), "2.9", "2.9").already_fails);
  // Only what breaks says so: a tooling rule has nothing that fails.
  CHECK_FALSE(at(rule_of(RuleKind::Removed, "2.8", nullptr, RuleImpact::Tooling), "2.9", "2.9").already_fails);
}

TEST_CASE("a changed default is reported only when the supported range crosses it") {
  RuleSpec changed = rule_of(RuleKind::ChangedDefault, "2.8", nullptr, RuleImpact::SilentChange);
  CHECK(at(changed, "2.7", "2.8").reported);
  CHECK(at(changed, "2.1", "2.9").reported);
  CHECK_FALSE(at(changed, "2.8", "2.8").reported);  // every supported release has the new default
  CHECK_FALSE(at(changed, "2.9", "2.9").reported);
  CHECK_FALSE(at(changed, "2.7", "2.7").reported);  // the target does not reach it
  CHECK(standing_note(changed, at(changed, "2.7", "2.8"), TorchVersion{2, 7}).empty());
}

TEST_CASE("a deprecation is reported once the target reaches it, and breaks once it reaches the removal") {
  RuleSpec deprecated = rule_of(RuleKind::Deprecated, "2.8", "2.9", RuleImpact::Deprecated);
  RuleStanding warned = at(deprecated, "2.7", "2.8");
  CHECK((warned.reported && !warned.removal_reached && !warned.already_fails));
  CHECK(at(deprecated, "2.9", "2.9").reported);
  RuleStanding removed = at(deprecated, "2.7", "2.9");
  CHECK((removed.reported && removed.removal_reached));
  CHECK(standing_note(deprecated, removed, TorchVersion{2, 7}) ==
        "; this breaks on the target release, torch 2.9 or later");
  CHECK_FALSE(at(rule_of(RuleKind::Deprecated, "2.8"), "2.7", "2.9").removal_reached);  // no removal known
}

TEST_CASE("build rules follow the removals") {
  RuleSpec build = rule_of(RuleKind::Build, "2.8", nullptr, RuleImpact::Build);
  CHECK(at(build, "2.8", "2.8").reported);
  CHECK_FALSE(at(build, "2.7", "2.7").reported);
  CHECK_FALSE(at(build, "2.8", "2.8").already_fails);
}

TEST_CASE("applicability is explained for each kind") {
  CHECK_THAT(applicability_text(rule_of(RuleKind::ChangedDefault, "2.8")),
             Catch::StartsWith("Reported when the project's supported range crosses torch 2.8"));
  CHECK_THAT(applicability_text(rule_of(RuleKind::Deprecated, "2.8", "2.9")),
             Catch::Contains("as breaking (an error) when it is 2.9 or newer"));
  CHECK_THAT(applicability_text(rule_of(RuleKind::Removed, "2.8")),
             Catch::StartsWith("Reported when the target release is torch 2.8 or newer, whatever"));
}

TEST_CASE("the built-in catalog's targets and target-version values") {
  const Catalog& catalog = Catalog::builtin();
  REQUIRE_FALSE(catalog.targets().empty());
  CHECK(catalog.targets().front() == default_target());
  CHECK(catalog.parse_target("2.8") == TorchVersion{2, 8});
  CHECK(catalog.parse_target("2.8.1") == TorchVersion{2, 8});
  CHECK(catalog.parse_target("latest") == catalog.targets().back());
  CHECK_THROWS_WITH(catalog.parse_target("2.7"), Catch::StartsWith("unknown target version `2.7`; expected 2.8"));
  CHECK_THROWS_WITH(catalog.parse_target("newest"), Catch::EndsWith("or latest"));
  for (TorchVersion target : catalog.targets()) CHECK(catalog.release().from < target);
}

TEST_CASE("keeping an old default is safe only while the project pins torch below the change") {
  RuleSpec changed = rule_of(RuleKind::ChangedDefault, "2.8", nullptr, RuleImpact::SilentChange);
  CHECK(keep_old_caveat(changed, TorchVersion{2, 7}).empty());
  CHECK(keep_old_caveat(changed, std::nullopt) ==
        "no upper bound below torch 2.8 is pinned, so the code may already run with its default");
  CHECK(keep_old_caveat(changed, TorchVersion{2, 9}) ==
        "the project supports torch 2.9, where the code already runs with the 2.8 default");
  CHECK(keep_old_caveat(rule_of(RuleKind::Removed, "2.8"), std::nullopt).empty());
}

TEST_CASE("a keep-old fix becomes unsafe, and says why, once the range may include the new default") {
  const char* source = "import torch\nep = torch.export.export(model, (x,))\n";
  auto keep_old = [&](std::optional<TorchVersion> max) {
    Settings settings;
    settings.selection.select = {"TM201"};
    settings.max_torch = max;
    Linter linter(Catalog::builtin(), torchmigrate::checks::builtin_registry(), settings);
    std::vector<torchmigrate::Diagnostic> found =
        linter.lint(torchmigrate::SourceFile("m.py", source, torchmigrate::Language::Python));
    REQUIRE(found.size() == 1);
    REQUIRE_FALSE(found[0].fixes.empty());
    return found[0].fixes.front();
  };
  torchmigrate::Fix pinned = keep_old(TorchVersion{2, 7});
  CHECK(pinned.applicability == torchmigrate::Applicability::Safe);
  CHECK(pinned.title == "Add `strict=True` to keep the 2.7 behaviour");
  torchmigrate::Fix open = keep_old(std::nullopt);
  CHECK(open.applicability == torchmigrate::Applicability::Unsafe);
  CHECK(open.title ==
        "Add `strict=True` to keep the 2.7 behaviour (no upper bound below torch 2.8 is pinned, so the "
        "code may already run with its default)");
}

TEST_CASE("a superseded rule gives way to its successor from the successor's release on") {
  RuleSpec legacy = rule_of(RuleKind::ChangedDefault, "2.8", nullptr, RuleImpact::SilentChange);
  legacy.superseded = RuleSpec::Successor{"TM207", TorchVersion{2, 9}};
  CHECK(at(legacy, "2.7", "2.8").reported);
  CHECK_FALSE(at(legacy, "2.7", "2.9").reported);
  CHECK_FALSE(at(legacy, "2.7", "2.11").reported);
  CHECK(applicability_text(legacy).ends_with(
      " Not reported when the target release is torch 2.9 or newer, where TM207 covers the same code."));
}

TEST_CASE("a catalog refuses a successor it does not have") {
  auto entry = [](const std::string& code, const std::string& extra) {
    return R"({"code": ")" + code + R"(", "name": "n-)" + code +
           R"(", "summary": "s", "message": "m", "severity": "warning", "since": "2.8", "kind": "removed",
               "impact": "breaks", "release": {"from": "2.7", "to": "2.8"}, "confidence": "high",
               "references": [], "triggers": ["x"], "check": {"family": "segment-reduce", "params": {"functions": ["torch.x"]}},
               "fix": {"applicability": "none"}, "docs": {"what": "w", "why": "y", "before": "b", "after": "a",
               "fix_safety": "f", "limitations": "l"})" +
           extra + "}";
  };
  std::string superseded = entry("TM998", R"(, "superseded": {"by": "TM999", "from": "2.9"})");
  CHECK_THROWS_WITH(Catalog::parse({{"TM998", superseded}}), Catch::Contains("superseded by unknown rule TM999"));
  std::string successor = entry("TM999", "");
  CHECK(Catalog::parse({{"TM998", superseded}, {"TM999", successor}}).find("TM998")->superseded->code == "TM999");
}
