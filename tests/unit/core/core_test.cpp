// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/core/source_file.hpp"

using namespace torchmigrate;

TEST_CASE("line index maps byte offsets to 1-based lines and code-point columns") {
  SourceFile file("a.py", "ab\r\nµx\nlast", Language::Python);
  CHECK(file.lines().line_count() == 3);
  CHECK(file.location(0).line == 1);
  CHECK(file.location(1).column == 2);
  // "µ" is two bytes: the `x` after it is column 2.
  CHECK(file.location(6).line == 2);
  CHECK(file.location(6).column == 2);
  CHECK(file.location(8).line == 3);
  CHECK(file.slice(file.lines().line_range(0, file.text())) == "ab");
  CHECK(file.slice(file.lines().line_range(2, file.text())) == "last");
  CHECK(file.line_ending() == "\r\n");
  CHECK(SourceFile("b.py", "x\n").line_ending() == "\n");
}

TEST_CASE("edits apply in position order, insertions before replacements at the same offset") {
  std::string text = "f(a)";
  std::vector<Edit> edits{Edit::replace({0, 1}, "g"), Edit::insert(0, "not "), Edit::insert(3, ", b")};
  CHECK(apply_edits(text, edits) == "not g(a, b)");
  CHECK_THROWS(apply_edits(text, {Edit::replace({0, 3}, "x"), Edit::replace({2, 4}, "y")}));
}

TEST_CASE("ranges overlap unless they only touch; two insertions at one point conflict") {
  CHECK(TextRange{0, 5}.overlaps({4, 6}));
  CHECK_FALSE(TextRange{0, 5}.overlaps({5, 6}));
  CHECK(TextRange{3, 3}.overlaps({3, 3}));
  CHECK_FALSE(TextRange{3, 3}.overlaps({3, 7}));
  CHECK(TextRange{3, 3}.overlaps({1, 7}));
}
