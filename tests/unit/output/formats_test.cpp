// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/output/unified_diff.hpp"

using namespace torchmigrate;

namespace {

struct Fixture {
  engine::Settings settings;
  engine::Linter linter{engine::Catalog::builtin(), checks::builtin_registry(), settings};
  output::Report report;

  explicit Fixture(const std::string& text) {
    auto file = std::make_shared<SourceFile>("pkg/m.py", text, Language::Python);
    report.files.push_back({file, linter.lint(*file)});
    report.catalog = &engine::Catalog::builtin();
    report.settings = &linter.settings();
  }
};

}  // namespace

TEST_CASE("concise output is one Ruff-style line per finding, then a summary") {
  Fixture fixture("import torch\nep = torch.export.export(m, (x,))\n");
  std::ostringstream out;
  output::write_concise(fixture.report, out);
  CHECK(out.str() ==
        "pkg/m.py:2:6: TM201 [*] `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
        "pass `strict=` explicitly\n"
        "Found 1 finding (1 warning).\n[*] 1 fixable with the `--fix` option.\n");
}

TEST_CASE("full output shows the line, a caret under the range and the fixes") {
  Fixture fixture("import torch\nep = torch.export.export(m, (x,))\n");
  std::ostringstream out;
  output::write_full(fixture.report, out);
  CHECK_THAT(out.str(), Catch::Contains("2 | ep = torch.export.export(m, (x,))\n"
                                        "  |      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ TM201\n"));
  CHECK_THAT(out.str(), Catch::Contains("= help: Add `strict=True` to keep the 2.7 behaviour [keep-old] (safe fix)"));
  CHECK_THAT(out.str(), Catch::Contains("= help: Add `strict=False` to adopt the 2.8 default [adopt-new] (unsafe fix)"));
}

TEST_CASE("json output carries locations, the chosen fix and its alternatives") {
  Fixture fixture("import torch\nep = torch.export.export(m, (x,))\n");
  std::ostringstream out;
  output::write_json(fixture.report, out);
  nlohmann::json findings = nlohmann::json::parse(out.str());
  REQUIRE(findings.size() == 1);
  const nlohmann::json& finding = findings[0];
  CHECK(finding["code"] == "TM201");
  CHECK(finding["name"] == "export-strict-default-changed");
  CHECK(finding["severity"] == "warning");
  CHECK(finding["filename"] == "pkg/m.py");
  CHECK(finding["location"] == nlohmann::json({{"row", 2}, {"column", 6}}));
  CHECK(finding["end_location"] == nlohmann::json({{"row", 2}, {"column", 34}}));
  CHECK(finding["fix"]["applicability"] == "safe");
  CHECK(finding["fix"]["policy"] == "keep-old");
  CHECK(finding["fix"]["edits"][0]["content"] == ", strict=True");
  CHECK(finding["fixes"].size() == 2);
  // Ruff's `url`: the rule's page where the build publishes docs/rules, else null.
  REQUIRE(finding.contains("url"));
  std::string page = engine::rule_docs_url(*engine::Catalog::builtin().find("TM201"));
  CHECK(finding["url"] == (page.empty() ? nlohmann::json(nullptr) : nlohmann::json(page)));
  CHECK((page.empty() || page.ends_with("/TM201-export-strict-default-changed.md")));
}

TEST_CASE("the unified diff has headers and hunks that patch can apply") {
  std::ostringstream out;
  output::write_unified_diff("m.py", "a\nb\nc\n", "a\nB\nc\n", out);
  CHECK(out.str() == "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}
