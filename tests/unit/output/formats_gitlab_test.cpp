// SPDX-License-Identifier: MIT
// GitLab Code Quality: the issue fields and fingerprints that survive line shifts.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("gitlab: each finding is a Code Quality issue") {
  LintedReport linted;
  nlohmann::json issues = nlohmann::json::parse(render(output::write_gitlab, linted.report));
  REQUIRE(issues.is_array());
  REQUIRE(issues.size() == 4);

  const nlohmann::json& tm201 = issues[2];
  CHECK(tm201["type"] == "issue");
  CHECK(tm201["check_name"] == "TM201");
  CHECK(tm201["description"] ==
        "TM201 `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); pass `strict=` explicitly");
  CHECK(tm201["categories"] == nlohmann::json::array({"Compatibility"}));
  CHECK(tm201["severity"] == "major");
  CHECK(tm201["location"] == nlohmann::json({{"path", "pkg/m.py"}, {"lines", {{"begin", 4}, {"end", 4}}}}));
  // SHA-256 of "pkg/m.py\0TM201\0torch.export.export(m, (x,))\00" (computed independently).
  CHECK(tm201["fingerprint"] == "cafcccd9a1b8d41e3c6388bdb6d7a438830a9a33a56c0c135ee66ffd2bafc83f");

  const nlohmann::json& tm101 = issues[0];
  CHECK(tm101["check_name"] == "TM101");
  CHECK(tm101["severity"] == "critical");
  CHECK(tm101["location"]["path"] == "pkg/a b.py");
  CHECK(tm101["location"]["lines"]["begin"] == 3);
  CHECK(tm101["fingerprint"] == "9cb52c58d77427243a4ea524cafb51eb5212d317ba95bb47810f3ab843655aeb");

  CHECK(issues[1]["check_name"] == "TM102");
  CHECK(issues[1]["location"]["lines"]["begin"] == 2);
  CHECK(issues[3]["location"]["lines"]["begin"] == 5);
  CHECK(issues[3]["fingerprint"] == "f793a5616efce0f2b2ef7ba508177c99103370171b53cbf6b9e47c9dd06b6058");
}

TEST_CASE("gitlab: fingerprints ignore line numbers and stay unique for repeated code") {
  LintedReport before({{"pkg/m.py", kModule}});
  LintedReport after({{"pkg/m.py", std::string("# a comment added above\n\n") + kModule}});
  nlohmann::json a = nlohmann::json::parse(render(output::write_gitlab, before.report));
  nlohmann::json b = nlohmann::json::parse(render(output::write_gitlab, after.report));
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i]["fingerprint"] == b[i]["fingerprint"]);
    CHECK(b[i]["location"]["lines"]["begin"] == a[i]["location"]["lines"]["begin"].get<int>() + 2);
  }

  LintedReport twice({{"pkg/m.py", "import torch\nep = torch.export.export(m, (x,))\nep = torch.export.export(m, (x,))\n"}});
  nlohmann::json issues = nlohmann::json::parse(render(output::write_gitlab, twice.report));
  REQUIRE(issues.size() == 2);
  CHECK(issues[0]["fingerprint"] != issues[1]["fingerprint"]);

  std::set<std::string> paths_differ;
  LintedReport two_files({{"pkg/a.py", kModule}, {"pkg/b.py", kModule}});
  for (const nlohmann::json& issue : nlohmann::json::parse(render(output::write_gitlab, two_files.report))) {
    paths_differ.insert(issue["fingerprint"].get<std::string>());
  }
  CHECK(paths_differ.size() == 6);
}

TEST_CASE("gitlab: info findings are `info`, and nothing found is an empty array") {
  HandMadeReport hand("pkg/m.py", "abc\n", Diagnostic{"TM201", "note", {0, 3}, Severity::Info, {}});
  CHECK(nlohmann::json::parse(render(output::write_gitlab, hand.report))[0]["severity"] == "info");
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(nlohmann::json::parse(render(output::write_gitlab, clean.report)) == nlohmann::json::array());
}
