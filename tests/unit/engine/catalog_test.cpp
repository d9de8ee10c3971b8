// SPDX-License-Identifier: MIT
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using engine::Catalog;
using engine::CatalogError;

namespace {

std::string minimal_rule(const std::string& extra = "") {
  return R"({"code": "TM999", "name": "test-rule", "summary": "s", "message": "`{name}` changed",
    "severity": "warning", "default_enabled": true, "since": "2.8", "kind": "removed", "impact": "breaks",
    "release": {"from": "2.7", "to": "2.8"}, "confidence": "high",
    "references": [], "triggers": ["x"], "check": {"family": "missing-keyword"},
    "fix": {"applicability": "safe"},
    "docs": {"what": "w", "why": "y", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l"})" +
         extra + "}";
}

std::string error_of(const std::string& text) {
  try {
    Catalog::parse({{"TM999.json", text}});
  } catch (const CatalogError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the built-in catalog loads and every rule names a known check") {
  const Catalog& catalog = Catalog::builtin();
  REQUIRE(catalog.rules().size() >= 5);
  REQUIRE(catalog.find("TM101") != nullptr);
  CHECK(catalog.find_by_code_or_name("export-strict-default-changed")->code == "TM201");
  engine::Settings all;
  all.selection.select = {"ALL"};
  CHECK_NOTHROW(engine::Linter(catalog, checks::builtin_registry(), all));
}

TEST_CASE("catalog entries are parsed strictly with messages that say what is wrong") {
  CHECK(error_of(minimal_rule()).empty());
  CHECK_THAT(error_of(minimal_rule(R"(, "severty": "error")")), Catch::Contains("unknown key `severty`"));
  CHECK_THAT(error_of(R"({"code": "TM999"})"), Catch::Contains("missing required key `name`"));
  std::string bad_severity = minimal_rule();
  bad_severity.replace(bad_severity.find("\"warning\""), 9, "\"fatal\"");
  CHECK_THAT(error_of(bad_severity), Catch::Contains("expected one of: error, warning, info"));
  CHECK_THAT(error_of("{not json"), Catch::Contains("TM999.json: invalid JSON"));
}

TEST_CASE("message templates fill placeholders and leave unknown ones alone") {
  engine::RuleSpec rule = engine::parse_rule(nlohmann::json::parse(minimal_rule()), "test");
  CHECK(rule.format_message({{"name", "torch.x"}}) == "`torch.x` changed");
  CHECK(rule.format_message({}) == "`{name}` changed");
}

TEST_CASE("check params are validated when the linter is built") {
  auto rule_text = minimal_rule();
  rule_text.replace(rule_text.find(R"({"family": "missing-keyword"})"), 29,
                    R"({"family": "missing-keyword", "params": {"callees": ["a"], "keyword": "k", "keep_old": "1", "adopt_new": "2", "typo": 1}})");
  Catalog catalog = Catalog::parse({{"TM999.json", rule_text}});
  CHECK_THROWS_WITH(engine::Linter(catalog, checks::builtin_registry(), {}), Catch::Contains("unknown key `typo`"));
  // Linters with the same rules share their built checks: a failure is not remembered as one.
  engine::Linter valid(Catalog::builtin(), checks::builtin_registry(), {});
  CHECK_THROWS_WITH(engine::Linter(catalog, checks::builtin_registry(), {}), Catch::Contains("unknown key `typo`"));
}

TEST_CASE("linters with the same rules build each check once and read the same facts") {
  engine::Linter first(Catalog::builtin(), checks::builtin_registry(), {});
  engine::Linter second(Catalog::builtin(), checks::builtin_registry(), {});
  for (const char* name : {"CMakeLists.txt", "requirements.txt", "setup.py", "kernel.cu"}) {
    SourceFile file(name, "", engine::language_for(name));
    INFO(name);
    CHECK(first.facts_read(file, true).any() == second.facts_read(file, true).any());
  }
  CHECK(first.facts_read(SourceFile("CMakeLists.txt", "", Language::BuildFile), true).any());
}

TEST_CASE("a reference links a pull request or an issue of pytorch/pytorch") {
  CHECK(engine::reference_url("pytorch#156630") == "https://github.com/pytorch/pytorch/pull/156630");
  CHECK(engine::reference_url("pytorch-issue#156181") == "https://github.com/pytorch/pytorch/issues/156181");
}

TEST_CASE("trigger_match and trigger_groups are read and checked") {
  engine::RuleSpec plain = engine::parse_rule(nlohmann::json::parse(minimal_rule()), "test");
  CHECK(plain.trigger_match == engine::TriggerMatch::Word);
  CHECK(plain.trigger_groups.empty());
  engine::RuleSpec grouped = engine::parse_rule(
      nlohmann::json::parse(minimal_rule(R"(, "trigger_match": "any-case", "trigger_groups": [["a", "b"], ["c"]])")),
      "test");
  CHECK(grouped.trigger_match == engine::TriggerMatch::AnyCase);
  CHECK(grouped.trigger_groups == std::vector<std::vector<std::string>>{{"a", "b"}, {"c"}});
  CHECK_THAT(error_of(minimal_rule(R"(, "trigger_match": "regex")")),
             Catch::Contains("expected one of: word, substring, any-case"));
  CHECK_THAT(error_of(minimal_rule(R"(, "trigger_groups": [])")), Catch::Contains("non-empty array"));
  CHECK_THAT(error_of(minimal_rule(R"(, "trigger_groups": [[]])")), Catch::Contains("non-empty array"));
  CHECK_THAT(error_of(minimal_rule(R"(, "trigger_groups": [["a", 1]])")), Catch::Contains("arrays of strings"));
  std::string slash = minimal_rule();
  slash.replace(slash.find("[\"x\"]"), 5, "[\"/.\"]");
  CHECK_THAT(error_of(slash), Catch::Contains("holds no [A-Za-z0-9_] word"));
  CHECK(error_of(minimal_rule(R"(, "trigger_match": "substring")")).empty());
  slash.replace(slash.rfind('}'), 1, R"(, "trigger_match": "substring"})");
  CHECK(error_of(slash).empty());
  std::string prefixed = minimal_rule();
  prefixed.replace(prefixed.find("[\"x\"]"), 5, "[\"= x$\"]");
  CHECK(error_of(prefixed).empty());
}

TEST_CASE("the catalog's release pair and impacts come from its rules") {
  const Catalog& catalog = Catalog::builtin();
  engine::ReleaseNames names = engine::builtin_release_names();
  CHECK(catalog.release().from.str() == names.from);
  CHECK(catalog.release().to.str() == names.to);
  CHECK(engine::default_min_torch() == catalog.release().from);
  // The default target is the oldest release a rule migrates to, the catalog's first target.
  TorchVersion first_to = catalog.release().to;
  for (const engine::RuleSpec& rule : catalog.rules()) first_to = std::min(first_to, rule.release.to);
  CHECK(names.first_to == first_to.str());
  CHECK(engine::default_target() == first_to);
  CHECK(catalog.targets().front() == first_to);
  for (const engine::RuleSpec& rule : catalog.rules()) {
    INFO(rule.code);
    CHECK_FALSE(rule.release.from < catalog.release().from);
    CHECK_FALSE(catalog.release().to < rule.release.to);
    // Build rules are about build files; every build-file rule is a build rule.
    CHECK((rule.impact == engine::RuleImpact::Build) == (rule.kind == engine::RuleKind::Build));
  }
  CHECK_THAT(error_of(minimal_rule(R"(, "impact": "urgent")")), Catch::Contains("expected one of: breaks"));
}

TEST_CASE("a missing-include rule's trigger group holds every name whose use it reports") {
  // The check reports a use of one of `needs[].names` (its last component is the token); a file
  // without any of them is never parsed, so the group must name each.
  for (const engine::RuleSpec& rule : Catalog::builtin().rules()) {
    if (rule.check_family != "cxx-missing-include") continue;
    INFO(rule.code);
    REQUIRE(rule.check_params);
    REQUIRE(rule.trigger_groups.size() == 1);
    const std::vector<std::string>& group = rule.trigger_groups.front();
    for (const nlohmann::json& need : rule.check_params->at("needs")) {
      for (const nlohmann::json& name : need.at("names")) {
        std::string spelled = name.get<std::string>();
        std::string last = spelled.substr(spelled.rfind(':') == std::string::npos ? 0 : spelled.rfind(':') + 1);
        INFO(spelled);
        CHECK(std::find(group.begin(), group.end(), last) != group.end());
      }
    }
  }
}

TEST_CASE("fix requirements: a lowest release, a removing release, or both") {
  auto requirements = [](const std::string& torch) {
    return engine::parse_fix_requirements(nlohmann::json{{"torch", torch}}, "test");
  };
  CHECK(to_string(requirements(">=2.5")) == "torch>=2.5");
  CHECK(to_string(requirements(">=2.5,<2.11")) == "torch>=2.5,<2.11");
  CHECK(requirements("<2.11").below == TorchVersion{2, 11});
  CHECK_FALSE(requirements("<2.11").torch.has_value());
  CHECK_THROWS_WITH(requirements(">=2.11,<2.5"), Catch::Contains("no release meets it"));
  CHECK_THROWS_WITH(requirements("==2.5"), Catch::Contains("expected `>=MAJOR.MINOR`, `<MAJOR.MINOR`"));
  CHECK_THROWS_WITH(requirements(""), Catch::Contains("names no requirement"));
}

TEST_CASE("a rule's lifecycle: removed_in must come after since") {
  std::string rule = minimal_rule();
  rule.replace(rule.find(R"("since": "2.8")"), 14, R"("since": "2.8", "removed_in": "2.8")");
  CHECK_THAT(error_of(rule), Catch::Contains("`removed_in` must be a release after `since`"));
  std::string bad_since = minimal_rule();
  bad_since.replace(bad_since.find(R"("since": "2.8")"), 14, R"("since": "2.8.1")");
  CHECK_THAT(error_of(bad_since), Catch::Contains("`since` is `2.8.1`; expected MAJOR.MINOR"));
}

TEST_CASE("a later release's change to a rule applies once the project's range reaches it") {
  std::string rule = R"({"code": "TM999", "name": "test-rule", "summary": "s",
    "message": "`{callee}` changed", "severity": "warning", "default_enabled": true, "since": "2.8",
    "kind": "removed", "impact": "breaks", "release": {"from": "2.7", "to": "2.8"}, "confidence": "high",
    "references": [], "triggers": ["export"],
    "check": {"family": "missing-keyword", "params": {"callees": ["torch.export.export"], "keyword": "strict",
                                                      "keep_old": "True", "adopt_new": "False"}},
    "fix": {"applicability": "safe"},
    "targets": [{"from": "2.9", "message": "`{callee}` changed again", "severity": "error",
                 "fix": {"applicability": "unsafe", "requires": {"torch": ">=2.9"}}}],
    "docs": {"what": "w", "why": "y", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l"}})";
  Catalog catalog = Catalog::parse({{"TM999.json", rule}});
  const engine::RuleSpec& base = catalog.rules().front();
  REQUIRE(base.variants.size() == 1);
  CHECK(&base.reaching(TorchVersion{2, 8}) == &base);
  const engine::RuleSpec& later = base.reaching(TorchVersion{2, 11});
  CHECK(later.message == "`{callee}` changed again");
  CHECK(later.severity == Severity::Error);
  CHECK(later.fix_applicability == Applicability::Unsafe);
  CHECK(to_string(later.fix_requirements) == "torch>=2.9");
  CHECK(catalog.targets() == std::vector<TorchVersion>{{2, 8}, {2, 9}});

  auto lint = [&](const char* target) {
    engine::Settings settings;
    settings.selection.select = {"TM999"};
    settings.target = TorchVersion::parse(target);
    engine::Linter linter(catalog, checks::builtin_registry(), settings);
    return linter.lint(SourceFile("m.py", "import torch\ntorch.export.export(m, (x,))\n", Language::Python));
  };
  std::vector<Diagnostic> at_28 = lint("2.8");
  REQUIRE(at_28.size() == 1);
  CHECK(at_28[0].message == "`torch.export.export` changed");
  CHECK(at_28[0].severity == Severity::Warning);
  std::vector<Diagnostic> at_29 = lint("2.9");
  REQUIRE(at_29.size() == 1);
  CHECK(at_29[0].message == "`torch.export.export` changed again");
  CHECK(at_29[0].severity == Severity::Error);

  std::string early = rule;
  const std::string later_from = R"("from": "2.9")";
  early.replace(early.find(later_from), later_from.size(), R"("from": "2.8")");
  CHECK_THAT(error_of(early), Catch::Contains("targets[0]: `from` must be a release after the rule's `since`"));
  std::string unknown = rule;
  const std::string severity = R"("severity": "error")";
  unknown.replace(unknown.find(severity), severity.size(), R"("colour": "red")");
  CHECK_THAT(error_of(unknown), Catch::Contains("targets[0]: unknown key `colour`"));
}
