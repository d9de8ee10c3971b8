// SPDX-License-Identifier: MIT
// rdjson: reviewdog's DiagnosticResult, with UTF-8 byte columns and the chosen fix as suggestions.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("rdjson: a DiagnosticResult with each finding's range, severity, code and suggested fix") {
  LintedReport linted({{"pkg/m.py", "import torch\nep = torch.export.export(m, (x,))\n"}});
  std::string text = render(output::write_rdjson, linted.report);
  CHECK(text ==
        "{\n"
        "  \"diagnostics\": [\n"
        "    {\n"
        "      \"code\": {\n"
        "        \"value\": \"TM201\"\n"
        "      },\n"
        "      \"location\": {\n"
        "        \"path\": \"pkg/m.py\",\n"
        "        \"range\": {\n"
        "          \"end\": {\n"
        "            \"column\": 34,\n"
        "            \"line\": 2\n"
        "          },\n"
        "          \"start\": {\n"
        "            \"column\": 6,\n"
        "            \"line\": 2\n"
        "          }\n"
        "        }\n"
        "      },\n"
        "      \"message\": \"`torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); pass "
        "`strict=` explicitly\",\n"
        "      \"severity\": \"WARNING\",\n"
        "      \"suggestions\": [\n"
        "        {\n"
        "          \"range\": {\n"
        "            \"end\": {\n"
        "              \"column\": 33,\n"
        "              \"line\": 2\n"
        "            },\n"
        "            \"start\": {\n"
        "              \"column\": 33,\n"
        "              \"line\": 2\n"
        "            }\n"
        "          },\n"
        "          \"text\": \", strict=True\"\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  ],\n"
        "  \"source\": {\n"
        "    \"name\": \"torchmigrate\"\n"
        "  }\n"
        "}\n");
}

TEST_CASE("rdjson: columns count UTF-8 bytes; errors are ERROR; nothing found is an empty list") {
  // `modèle` is six characters and seven bytes: the finding (the whole call, 42 bytes) starts at
  // byte column 11.
  LintedReport linted({{"m.py", "import torch\nmodèle = torch.export.export_for_inference(m, (x,))\n"}});
  nlohmann::json result = nlohmann::json::parse(render(output::write_rdjson, linted.report));
  REQUIRE(result["diagnostics"].size() == 1);
  const nlohmann::json& diagnostic = result["diagnostics"][0];
  CHECK(diagnostic["code"]["value"] == "TM101");
  CHECK(diagnostic["severity"] == "ERROR");
  CHECK(diagnostic["location"]["range"]["start"] == nlohmann::json{{"line", 2}, {"column", 11}});
  CHECK(diagnostic["location"]["range"]["end"] == nlohmann::json{{"line", 2}, {"column", 53}});
  // The json format counts code points: the same start is its column 10.
  nlohmann::json findings = nlohmann::json::parse(render(output::write_json, linted.report));
  CHECK(findings[0]["location"]["column"] == 10);

  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(nlohmann::json::parse(render(output::write_rdjson, clean.report)) ==
        nlohmann::json{{"diagnostics", nlohmann::json::array()}, {"source", {{"name", "torchmigrate"}}}});
}

TEST_CASE("rdjson: no suggestion for a display-only fix") {
  // TM205's fix for `False` is display-only: the guard evaluation can no longer be turned off.
  LintedReport linted({{"m.py", "import torch\ntorch._dynamo.config.enable_cpp_framelocals_guard_eval = False\n"}});
  nlohmann::json result = nlohmann::json::parse(render(output::write_rdjson, linted.report));
  REQUIRE(result["diagnostics"].size() == 1);
  CHECK(result["diagnostics"][0]["code"]["value"] == "TM205");
  CHECK_FALSE(result["diagnostics"][0].contains("suggestions"));
  nlohmann::json findings = nlohmann::json::parse(render(output::write_json, linted.report));
  CHECK(findings[0]["fix"]["applicability"] == "display-only");
}
