// SPDX-License-Identifier: MIT
// A hostile file name or message never adds a line to a report: no fake finding, no GitHub
// workflow command, no terminal escape sequence reaches the reader raw.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"
#include "torchmigrate/output/escape.hpp"

using namespace format_tests;

namespace {

const std::string kHostilePath = "pkg/a\n::error file=x.py,line=1::pwned\x1b[31m.py";

HandMadeReport hostile() {
  return HandMadeReport(kHostilePath, "abc\n", Diagnostic{"TM201", "bad\nnews\x1b]0;title\x07", {0, 3}, Severity::Error, {}});
}

}  // namespace

TEST_CASE("escape_control makes control, separator and bidi characters and bad bytes visible") {
  CHECK(output::escape_control("a\nb\rc\td\x1b[0m\x7f") == "a\\nb\\rc\\td\\x1b[0m\\x7f");
  CHECK(output::escape_control("tab\tkept", true) == "tab\tkept");
  CHECK(output::escape_control("\xC2\x85|\xE2\x80\xA8|\xE2\x80\xAE|\xE2\x81\xA6") == "\\u0085|\\u2028|\\u202e|\\u2066");
  CHECK(output::escape_control("caf\xC3\xA9 \xF0\x9F\x94\xA5") == "caf\xC3\xA9 \xF0\x9F\x94\xA5");
  CHECK(output::escape_control("bad\xFF\xC3") == "bad\\xff\\xc3");
  CHECK(output::escape_control("\xED\xA0\x80") == "\\xed\\xa0\\x80");  // an encoded surrogate is not UTF-8
}

TEST_CASE("concise and full: a newline in a path or message stays on the finding's line") {
  HandMadeReport hand = hostile();
  for (auto writer : {output::write_concise, output::write_full}) {
    std::string text = render(writer, hand.report);
    CHECK_THAT(text, Catch::StartsWith("pkg/a\\n::error file=x.py,line=1::pwned\\x1b[31m.py:1:1: TM201 bad\\nnews"
                                       "\\x1b]0;title\\x07\n"));
    for (const std::string& line : lines_of(text)) CHECK_FALSE(line.starts_with("::"));
    CHECK(text.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("full: control characters in the source line are escaped and the caret still lines up") {
  HandMadeReport hand("a.py", "x = '\x1b' + y\n", Diagnostic{"TM201", "m", {10, 11}, Severity::Error, {}});
  std::vector<std::string> lines = lines_of(render(output::write_full, hand.report));
  REQUIRE(lines.size() > 3);
  CHECK(lines[2] == "1 | x = '\\x1b' + y");
  CHECK(lines[3] == "  | " + std::string(13, ' ') + "^ TM201");  // under `y`, after the 4-character `\x1b`
}

TEST_CASE("github: a newline in a path cannot start a workflow command") {
  std::string text = render(output::write_github, hostile().report);
  CHECK(lines_of(text).size() == 1);
  CHECK_THAT(text, Catch::Contains("file=pkg/a%0A%3A%3Aerror file=x.py%2Cline=1%3A%3Apwned\\x1b[31m.py,line=1"));
  CHECK_THAT(text, Catch::EndsWith("::TM201 bad%0Anews\\x1b]0;title\\x07\n"));
}

TEST_CASE("junit: newlines become character references, other controls visible escapes") {
  std::string text = render(output::write_junit, hostile().report);
  CHECK_THAT(text, Catch::Contains("name=\"pkg/a&#10;::error file=x.py,line=1::pwned\\x1b[31m.py\""));
  CHECK(text.find('\x1b') == std::string::npos);
  for (const std::string& line : lines_of(text)) CHECK_FALSE(line.starts_with("::"));
}

TEST_CASE("the JSON formats keep the exact path, escaped by JSON") {
  HandMadeReport hand = hostile();
  for (auto writer : {output::write_json, output::write_gitlab, output::write_sarif}) {
    std::string text = render(writer, hand.report);
    for (const std::string& line : lines_of(text)) CHECK_FALSE(line.starts_with("::"));
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK_NOTHROW(nlohmann::json::parse(text));
  }
  std::string lines = render(output::write_json_lines, hand.report);
  CHECK(lines_of(lines).size() == 1);
  CHECK(nlohmann::json::parse(lines)["filename"] == kHostilePath);
}
