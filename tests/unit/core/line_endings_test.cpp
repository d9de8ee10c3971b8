// SPDX-License-Identifier: MIT
// Lines end where Python's tokenizer ends them: `\r\n`, a lone `\r`, `\n`. A form feed and the
// Unicode line and paragraph separators do not end a line in Python source.
#include <catch2/catch.hpp>

#include "torchmigrate/core/source_file.hpp"

using namespace torchmigrate;

TEST_CASE("a lone carriage return ends a line, as in Python") {
  SourceFile cr("a.py", "import torch\rx = 1\r\ry\r", Language::Python);
  CHECK(cr.lines().line_count() == 5);
  CHECK(cr.location(13).line == 2);
  CHECK(cr.location(13).column == 1);
  CHECK(cr.location(20).line == 4);
  CHECK(cr.slice(cr.lines().line_range(0, cr.text())) == "import torch");
  CHECK(cr.slice(cr.lines().line_range(1, cr.text())) == "x = 1");
  CHECK(cr.slice(cr.lines().line_range(2, cr.text())).empty());
  CHECK(cr.line_ending() == "\r");
}

TEST_CASE("mixed endings: CRLF is one terminator, CR and LF each end a line") {
  SourceFile mixed("a.py", "a\r\nb\rc\nd", Language::Python);
  CHECK(mixed.lines().line_count() == 4);
  CHECK(mixed.location(3).line == 2);  // b
  CHECK(mixed.location(5).line == 3);  // c
  CHECK(mixed.location(7).line == 4);  // d
  CHECK(mixed.slice(mixed.lines().line_range(0, mixed.text())) == "a");
  CHECK(mixed.slice(mixed.lines().line_range(1, mixed.text())) == "b");
  CHECK(mixed.line_ending() == "\r\n");
}

TEST_CASE("form feed and U+2028/U+2029 do not end a line in Python source") {
  SourceFile file("a.py", "\fx = 1\xE2\x80\xA8y\xE2\x80\xA9z\n", Language::Python);
  CHECK(file.lines().line_count() == 2);
  CHECK(file.location(1).line == 1);
  CHECK(file.location(1).column == 2);  // after the form feed
  // "y" follows U+2028 (three bytes) and is still on line 1.
  CHECK(file.location(9).line == 1);
  CHECK(file.location(9).column == 8);
}

TEST_CASE("a file of LF lines and the same file with CR lines give the same positions") {
  std::string lf = "import torch\n\ndef f():\n    return torch.export.export(m, (x,))\n";
  std::string cr = lf;
  for (char& c : cr) c = c == '\n' ? '\r' : c;
  SourceFile a("a.py", lf), b("b.py", cr);
  REQUIRE(a.lines().line_count() == b.lines().line_count());
  for (uint32_t offset = 0; offset < lf.size(); ++offset) {
    CHECK(a.location(offset).line == b.location(offset).line);
    CHECK(a.location(offset).column == b.location(offset).column);
  }
}
