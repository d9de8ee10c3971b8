// SPDX-License-Identifier: MIT
// An excerpt keeps whole lines and still names the original line numbers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "torchmigrate/core/source_file.hpp"

using namespace torchmigrate;

TEST_CASE("an excerpt keeps the lines its spans reach and maps offsets and lines back") {
  const std::string text = "import torch\nx = 1\ny = torch.a(\n    2)\nz = 3\nlast = torch.b()";
  SourceFile file("m.py", text, Language::Python);
  const uint32_t call = static_cast<uint32_t>(text.find("torch.a"));
  const uint32_t call_end = static_cast<uint32_t>(text.find("2)") + 2);
  const uint32_t last = static_cast<uint32_t>(text.find("torch.b"));
  ExcerptOffsets offsets;
  SourceFile excerpt =
      SourceFile::excerpt(file, {{call, call_end}, {last, static_cast<uint32_t>(text.size())}, {0, 0}}, offsets);
  CHECK(excerpt.is_excerpt());
  CHECK_FALSE(file.is_excerpt());
  CHECK(excerpt.text() == "import torch\ny = torch.a(\n    2)\nlast = torch.b()");
  CHECK(excerpt.slice({offsets(call), offsets(call_end)}) == file.slice({call, call_end}));
  for (uint32_t offset : {0u, call, call_end, last, static_cast<uint32_t>(text.size())}) {
    INFO("offset " << offset);
    CHECK(excerpt.location(offsets(offset)).line == file.location(offset).line);
    CHECK(excerpt.location(offsets(offset)).column == file.location(offset).column);
  }
  CHECK(excerpt.path() == "m.py");
  CHECK(excerpt.language() == Language::Python);
}

TEST_CASE("a kept line ending in a lone CR stays apart from a kept line that is only LF") {
  // Lines: "a\r", "b\n", "\n", "c\r\n", "".
  SourceFile file("m.py", "a\rb\n\nc\r\n", Language::Python);
  ExcerptOffsets offsets;
  SourceFile excerpt = SourceFile::excerpt(file, {{0, 1}, {4, 4}, {7, 7}}, offsets);
  CHECK(excerpt.location(offsets(0)).line == 1);
  CHECK(excerpt.location(offsets(4)).line == 3);
  CHECK(excerpt.location(offsets(4)).column == 1);
  CHECK(excerpt.location(offsets(6)).line == 4);
  CHECK(excerpt.location(offsets(6)).column == file.location(6).column);
  CHECK(excerpt.lines().line_count() == 4);
}

TEST_CASE("an excerpt of no span is empty, and still an excerpt") {
  SourceFile file("m.py", "x = 1\n", Language::Python);
  ExcerptOffsets offsets;
  SourceFile excerpt = SourceFile::excerpt(file, {}, offsets);
  CHECK(excerpt.text().empty());
  CHECK(excerpt.is_excerpt());
  CHECK(excerpt.location(0).line == 1);
}
