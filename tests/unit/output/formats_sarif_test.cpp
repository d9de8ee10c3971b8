// SPDX-License-Identifier: MIT
// SARIF 2.1.0: the driver's rule metadata, results with regions relative to %SRCROOT%, fixes.
// (tests/sarif/validate_sarif.mjs validates a whole report with the official validator.)
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"
#include "torchmigrate/version.hpp"

using namespace format_tests;
using nlohmann::json;

namespace {

json region(int start_line, int start_column, int end_line, int end_column) {
  return {{"startLine", start_line}, {"startColumn", start_column}, {"endLine", end_line}, {"endColumn", end_column}};
}

json sarif(const output::Report& report) { return json::parse(render(output::write_sarif, report)); }

}  // namespace

TEST_CASE("sarif: log header, driver and the run's root") {
  LintedReport linted;
  json log = sarif(linted.report);
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  REQUIRE(log["runs"].size() == 1);
  const json& run = log["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "torchmigrate");
  CHECK(run["tool"]["driver"]["version"] == kVersion);
  CHECK(run["tool"]["driver"]["semanticVersion"] == kVersion);
  CHECK(run["columnKind"] == "unicodeCodePoints");
  CHECK(run["originalUriBaseIds"] == json({{"%SRCROOT%", {{"uri", "file:///repo/"}}}}));
}

namespace {
// Position of a rule in the driver's rule list (the catalog order).
size_t index_of(const std::string& code) {
  const auto& rules = engine::Catalog::builtin().rules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].code == code) return i;
  }
  FAIL("no rule " << code);
  return 0;
}
}  // namespace

TEST_CASE("sarif: every catalog rule is described with its docs") {
  LintedReport linted;
  const json log = sarif(linted.report);
  const json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  const auto& catalog = engine::Catalog::builtin().rules();
  REQUIRE(rules.size() == catalog.size());
  for (size_t i = 0; i < catalog.size(); ++i) CHECK(rules[i]["id"] == catalog[i].code);

  const engine::RuleSpec& spec = *engine::Catalog::builtin().find("TM201");
  const json& rule = rules[index_of("TM201")];
  REQUIRE(rule["id"] == "TM201");
  CHECK(rule["name"] == "export-strict-default-changed");
  CHECK(rule["shortDescription"]["text"] == spec.summary);
  CHECK(rule["fullDescription"]["text"] == spec.docs().what);
  CHECK(rule["helpUri"] == "https://github.com/pytorch/pytorch/pull/148790");
  // A rule without references points at what the driver does (SARIF2005 wants informationUri).
  const json& driver = log["runs"][0]["tool"]["driver"];
  CHECK(driver["informationUri"].get<std::string>().starts_with("https://"));
  CHECK(rules[index_of("TM001")]["helpUri"] == driver["informationUri"]);
  CHECK(rule["defaultConfiguration"] == json({{"level", "warning"}, {"enabled", true}}));
  CHECK(rule["properties"]["precision"] == "high");
  CHECK(rule["properties"]["problem.severity"] == "warning");
  CHECK(rule["properties"]["confidence"] == "high");
  CHECK(rule["properties"]["since"] == "2.8");
  CHECK(rule["properties"]["fix"] == "safe (needs torch>=2.2)");
  CHECK(rule["properties"]["references"] == json::array({"pytorch#148790", "pytorch#150941"}));
  CHECK(rule["properties"]["tags"] == json::array({"pytorch-2.8", "migration"}));

  std::string text = rule["help"]["text"];
  CHECK(text.starts_with(spec.docs().what + "\n\nWhy: " + spec.docs().why + "\n\nExample:\n    import torch\n"));
  CHECK_THAT(text, Catch::Contains("Use instead:\n    import torch\n\n    ep = torch.export.export(model, (x,), strict=True)\n"));
  CHECK_THAT(text, Catch::Contains("Fix safety: " + spec.docs().fix_safety));
  CHECK_THAT(text, Catch::Contains("- pytorch#150941: https://github.com/pytorch/pytorch/pull/150941\n"));
  std::string markdown = rule["help"]["markdown"];
  CHECK(markdown.starts_with("## What it does\n" + spec.docs().what + "\n\n## Why is this bad?\n"));
  CHECK_THAT(markdown, Catch::Contains("## Example\n```python\nimport torch\n\nep = torch.export.export(model, (x,))\n```\n"));
  CHECK_THAT(markdown, Catch::Contains("(`--policy TM201=adopt-new`):\n```python\n"));
  CHECK_THAT(markdown, Catch::Contains("## Limitations\n" + spec.docs().limitations));
  CHECK_THAT(markdown, Catch::Contains("- [pytorch#148790](https://github.com/pytorch/pytorch/pull/148790)\n"));

  CHECK(rules[index_of("TM101")]["defaultConfiguration"]["level"] == "error");  // an error rule
}

TEST_CASE("sarif: results point at the rule, the file below %SRCROOT% and the region") {
  LintedReport linted;
  const json log = sarif(linted.report);
  const json& results = log["runs"][0]["results"];
  REQUIRE(results.size() == 4);

  const json& tm101 = results[0];
  CHECK(tm101["ruleId"] == "TM101");
  CHECK(tm101["ruleIndex"] == index_of("TM101"));
  CHECK(tm101["level"] == "error");
  CHECK(tm101["message"]["text"] ==
        "`torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)");
  REQUIRE(tm101["locations"].size() == 1);
  const json& location = tm101["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"] == json({{"uri", "pkg/a%20b.py"}, {"uriBaseId", "%SRCROOT%"}}));
  CHECK(location["region"] == region(3, 6, 3, 48));

  CHECK(results[1]["ruleId"] == "TM102");
  CHECK(results[1]["ruleIndex"] == index_of("TM102"));
  CHECK(results[1]["locations"][0]["physicalLocation"]["region"] == region(2, 1, 2, 66));
  CHECK(results[2]["ruleId"] == "TM201");
  CHECK(results[2]["ruleIndex"] == index_of("TM201"));
  CHECK(results[2]["level"] == "warning");
  CHECK(results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/m.py");
  CHECK(results[2]["locations"][0]["physicalLocation"]["region"] == region(4, 6, 4, 34));
  CHECK(results[3]["locations"][0]["physicalLocation"]["region"] == region(5, 4, 5, 27));
}

TEST_CASE("sarif: fixes are artifact changes with deleted regions and inserted content") {
  LintedReport linted;
  const json log = sarif(linted.report);
  const json& results = log["runs"][0]["results"];

  // TM101: one safe fix of three edits.
  REQUIRE(results[0]["fixes"].size() == 1);
  const json& rename = results[0]["fixes"][0];
  CHECK(rename["description"]["text"] == "Replace with `export_for_training`");
  CHECK(rename["properties"] == json({{"applicability", "safe"}, {"requires", "torch>=2.5,<2.11"}}));
  REQUIRE(rename["artifactChanges"].size() == 1);
  CHECK(rename["artifactChanges"][0]["artifactLocation"] == json({{"uri", "pkg/a%20b.py"}, {"uriBaseId", "%SRCROOT%"}}));
  const json& replacements = rename["artifactChanges"][0]["replacements"];
  REQUIRE(replacements.size() == 3);
  CHECK(replacements[0] == json({{"deletedRegion", region(3, 19, 3, 39)}, {"insertedContent", {{"text", "export_for_training"}}}}));
  CHECK(replacements[1] == json({{"deletedRegion", region(3, 47, 3, 47)}, {"insertedContent", {{"text", ", strict=True"}}}}));
  CHECK(replacements[2] ==
        json({{"deletedRegion", region(3, 48, 3, 48)}, {"insertedContent", {{"text", ".run_decompositions()"}}}}));

  // TM201: the keep-old fix that --fix applies first, then the unsafe adopt-new alternative.
  const json& fixes = results[2]["fixes"];
  REQUIRE(fixes.size() == 2);
  CHECK(fixes[0]["properties"] ==
        json({{"applicability", "safe"}, {"policy", "keep-old"}, {"requires", "torch>=2.2"}}));
  CHECK(fixes[0]["artifactChanges"][0]["replacements"][0] ==
        json({{"deletedRegion", region(4, 33, 4, 33)}, {"insertedContent", {{"text", ", strict=True"}}}}));
  CHECK(fixes[1]["properties"]["applicability"] == "unsafe");
  CHECK(fixes[1]["properties"]["policy"] == "adopt-new");
  CHECK(fixes[1]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == ", strict=False");

  // TM102: the 2.8-only rename is unsafe while torch 2.7 is still supported.
  CHECK(results[1]["fixes"][0]["properties"]["applicability"] == "unsafe");
  CHECK(results[1]["fixes"][0]["properties"]["requires"] == "torch>=2.8");
}

TEST_CASE("sarif: absolute paths outside the root are file URIs; no root, no base ids") {
  LintedReport linted({{"/elsewhere/my dir/m.py", kModule}});
  linted.report.root.clear();
  const json run = sarif(linted.report)["runs"][0];
  CHECK(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] ==
        json({{"uri", "file:///elsewhere/my%20dir/m.py"}}));
  CHECK_FALSE(run.contains("originalUriBaseIds"));

  LintedReport below({{"/repo/src/m.py", kModule}});
  CHECK(sarif(below.report)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] ==
        json({{"uri", "src/m.py"}, {"uriBaseId", "%SRCROOT%"}}));
}

TEST_CASE("sarif: internal codes get a rule entry of their own") {
  HandMadeReport hand("pkg/m.py", "abc\n", Diagnostic{kIoErrorCode, "Failed to read file: denied", {0, 0}, Severity::Error, {}});
  const json run = sarif(hand.report)["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  size_t catalog_size = engine::Catalog::builtin().rules().size();
  REQUIRE(rules.size() == catalog_size + 1);
  CHECK(rules[catalog_size]["id"] == kIoErrorCode);
  CHECK(rules[catalog_size]["name"] == "io-error");
  CHECK(rules[catalog_size]["defaultConfiguration"]["level"] == "error");
  CHECK(run["results"][0]["ruleIndex"] == catalog_size);
  CHECK(run["results"][0]["locations"][0]["physicalLocation"]["region"] == region(1, 1, 1, 1));
  CHECK_FALSE(run["results"][0].contains("fixes"));
}
