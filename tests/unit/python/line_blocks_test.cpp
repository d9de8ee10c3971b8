// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/python/line_blocks.hpp"

#include <string>
#include <string_view>
#include <vector>

using torchmigrate::python::LineBlocks;

namespace {

std::vector<std::string> headers_at(std::string_view text, std::string_view word) {
  LineBlocks blocks(text);
  REQUIRE_FALSE(blocks.unreadable());
  std::vector<std::string> headers;
  for (std::string_view header : blocks.enclosing_headers(text.find(word))) headers.emplace_back(header);
  return headers;
}

}  // namespace

TEST_CASE("the headers around a line, innermost first, up to the left margin") {
  std::string text =
      "import torch\n"
      "\n"
      "def f(xs):\n"
      "    try:\n"
      "        # a comment at any indentation\n"
      "  # here too\n"
      "        y = torch.cat(xs)\n"
      "    except RuntimeError:\n"
      "        pass\n";
  CHECK(headers_at(text, "cat") == std::vector<std::string>{"try:", "def f(xs):"});
  CHECK(headers_at(text, "pass") == std::vector<std::string>{"except RuntimeError:", "def f(xs):"});
  CHECK(headers_at(text, "import").empty());
}

TEST_CASE("lines inside brackets, strings and after a backslash are not statements") {
  std::string text =
      "def f(xs):\n"
      "    y = g(a,\n"
      "b)\n"
      "    s = '''\n"
      "not a header:\n"
      "'''\n"
      "    z = 1 + \\\n"
      "2\n"
      "    w = torch.cat(xs)\n";
  CHECK(headers_at(text, "torch.cat") == std::vector<std::string>{"def f(xs):"});
  LineBlocks blocks(text);
  CHECK(blocks.statement_up_to(text.find("b)")) == "    y = g(a,\nb)");
}

TEST_CASE("text that indentation cannot read is unreadable") {
  CHECK(LineBlocks("def f():\n\treturn 1\n").unreadable());
  CHECK(LineBlocks("x = (1,\n").unreadable());
  CHECK(LineBlocks("s = '''open\n").unreadable());
  CHECK(LineBlocks("s = 'open\ny = 1\n").unreadable());
  CHECK(LineBlocks("s = f'{d[\"k\"]}'\n").unreadable());
  CHECK_FALSE(LineBlocks("s = f'{x} and {{y}}'\nt = 'a\\\nb'\n").unreadable());
}
