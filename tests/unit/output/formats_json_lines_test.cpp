// SPDX-License-Identifier: MIT
// JSON Lines: one compact object per finding, the same objects as the json format.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("json-lines: one object per line, equal to the json format's entries") {
  LintedReport linted;
  std::string text = render(output::write_json_lines, linted.report);
  std::vector<std::string> lines = lines_of(text);
  nlohmann::json array = nlohmann::json::parse(render(output::write_json, linted.report));
  REQUIRE(lines.size() == 4);
  REQUIRE(array.size() == 4);
  for (size_t i = 0; i < lines.size(); ++i) {
    CHECK(lines[i].find('\n') == std::string::npos);
    CHECK(nlohmann::json::parse(lines[i]) == array[i]);
  }
  nlohmann::json first = nlohmann::json::parse(lines[0]);
  CHECK(first["code"] == "TM101");
  CHECK(first["name"] == "export-for-inference-removed");
  CHECK(first["severity"] == "error");
  CHECK(first["filename"] == "pkg/a b.py");
  CHECK(first["location"] == nlohmann::json({{"row", 3}, {"column", 6}}));
  CHECK(first["end_location"] == nlohmann::json({{"row", 3}, {"column", 48}}));
  CHECK(first["fix"]["applicability"] == "safe");
  CHECK(first["fix"]["edits"].size() == 3);
  nlohmann::json tm102 = nlohmann::json::parse(lines[1]);
  CHECK(tm102["code"] == "TM102");
  CHECK(tm102["fix"]["applicability"] == "unsafe");
  CHECK(text.ends_with("}\n"));
}

TEST_CASE("json-lines: nothing found prints nothing") {
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(render(output::write_json_lines, clean.report).empty());
}
