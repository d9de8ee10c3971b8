// SPDX-License-Identifier: MIT
// JUnit XML: a suite per file, a failing test case per finding, escaped text.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("junit: a testsuite per file and a failing testcase per finding") {
  LintedReport linted;
  std::vector<std::string> lines = lines_of(render(output::write_junit, linted.report));
  REQUIRE(lines.size() == 19);
  CHECK(lines[0] == R"(<?xml version="1.0" encoding="UTF-8"?>)");
  CHECK(lines[1] == R"(<testsuites name="torchmigrate" tests="4" failures="4" errors="0">)");
  CHECK(lines[2] ==
        R"(  <testsuite name="pkg/a b.py" tests="1" disabled="0" errors="0" failures="1" package="torchmigrate">)");
  CHECK(lines[3] ==
        R"(    <testcase name="torchmigrate.TM101" classname="pkg/a b" file="pkg/a b.py" line="3" column="6">)");
  CHECK(lines[4] ==
        "      <failure message=\"`torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)\" type=\"TM101\">line "
        "3, col 6, "
        "`torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)</failure>");
  CHECK(lines[5] == "    </testcase>");
  CHECK(lines[6] == "  </testsuite>");
  CHECK(lines[7] ==
        R"(  <testsuite name="pkg/m.py" tests="3" disabled="0" errors="0" failures="3" package="torchmigrate">)");
  CHECK(lines[8] == R"(    <testcase name="torchmigrate.TM102" classname="pkg/m" file="pkg/m.py" line="2" column="1">)");
  CHECK(lines[11] == R"(    <testcase name="torchmigrate.TM201" classname="pkg/m" file="pkg/m.py" line="4" column="6">)");
  CHECK(lines[14] == R"(    <testcase name="torchmigrate.TM102" classname="pkg/m" file="pkg/m.py" line="5" column="4">)");
  CHECK(lines[17] == "  </testsuite>");
  CHECK(lines[18] == "</testsuites>");
}

TEST_CASE("junit: markup, quotes, newlines and control characters are escaped") {
  Diagnostic diagnostic{"TM201", "a<b> & \"c\" 'd'\nnext\x01", {4, 5}, Severity::Warning, {}};
  HandMadeReport hand("pkg/<odd>&.py", "abc\ndef\n", diagnostic);
  std::string xml = render(output::write_junit, hand.report);
  CHECK_THAT(xml, Catch::Contains(R"(<testsuite name="pkg/&lt;odd&gt;&amp;.py" tests="1")"));
  CHECK_THAT(xml, Catch::Contains(R"(classname="pkg/&lt;odd&gt;&amp;" file="pkg/&lt;odd&gt;&amp;.py" line="2" column="1")"));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;&#10;next\\x01\" "
                                  "type=\"TM201\">line 2, col 1, a&lt;b&gt; &amp;"));
  CHECK_THAT(xml, !Catch::Contains("\x01"));
}

TEST_CASE("junit: nothing found is one passing test case") {
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(render(output::write_junit, clean.report) ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"torchmigrate\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
        "  <testsuite name=\"torchmigrate\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"0\" package=\"torchmigrate\">\n"
        "    <testcase name=\"No errors found\" classname=\"torchmigrate\"/>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
}
