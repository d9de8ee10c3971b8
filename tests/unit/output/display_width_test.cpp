// SPDX-License-Identifier: MIT
// Display width: the full format's carets under CJK, emoji and combining marks.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"
#include "torchmigrate/output/display_width.hpp"

using namespace format_tests;

TEST_CASE("display width counts terminal columns") {
  CHECK(output::display_width("torch") == 5);
  CHECK(output::display_width("模型") == 4);       // East Asian wide
  CHECK(output::display_width("🚀") == 2);          // emoji
  CHECK(output::display_width("ｔｏ") == 4);       // fullwidth forms
  CHECK(output::display_width("e\xcc\x81") == 1);  // e + combining acute accent
  CHECK(output::display_width("\xff") == 1);       // a bad byte
  CHECK(output::blank_like("\t模a") == "\t   ");
}

TEST_CASE("full: the caret lines up under CJK and emoji text") {
  std::string line = "模型 = \"🚀\"; ep = torch.export.export(m, (x,))";
  LintedReport linted({{"m.py", "import torch\n" + line + "\n"}});
  std::vector<std::string> lines = lines_of(render(output::write_full, linted.report));
  REQUIRE(lines.size() > 4);
  CHECK(lines[0].starts_with("m.py:2:16: TM201 [*] "));  // the column counts code points
  CHECK(lines[2] == "2 | " + line);
  // 模型 and 🚀 take two columns each: the call starts in display column 19.
  CHECK(lines[3] == "  | " + std::string(18, ' ') + std::string(28, '^') + " TM201");
}

TEST_CASE("full: a range over wide characters gets a caret per column") {
  HandMadeReport hand("a.py", "name = '漢字🚀' + x\n", Diagnostic{"TM201", "m", {8, 18}, Severity::Warning, {}});
  std::vector<std::string> lines = lines_of(render(output::write_full, hand.report));
  REQUIRE(lines.size() > 3);
  CHECK(lines[2] == "1 | name = '漢字🚀' + x");
  CHECK(lines[3] == "  | " + std::string(8, ' ') + std::string(6, '^') + " TM201");
}
