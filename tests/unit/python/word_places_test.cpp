// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/python/word_places.hpp"

#include <string>
#include <string_view>

using torchmigrate::python::WordPlaces;

namespace {

// Whether the first `word` after `after` in `text` may be code.
bool may_be_code(std::string_view text, std::string_view word, size_t after = 0) {
  size_t at = text.find(word, after);
  REQUIRE(at != std::string_view::npos);
  return WordPlaces(text).may_be_code(at);
}

}  // namespace

TEST_CASE("words in code count, words in comments do not") {
  CHECK(may_be_code("m = torch.jit.script(m)\n", "script"));
  CHECK_FALSE(may_be_code("x = 1  # torch.jit.script is slow\n", "script"));
  CHECK_FALSE(may_be_code("# torch.jit.script\ny = 2\n", "script"));
  CHECK(may_be_code("# a comment\nm = torch.jit.script(m)\n", "script"));
  CHECK(may_be_code("s = '#'\nm = torch.jit.script(m)\n", "script"));
}

TEST_CASE("prose strings do not count; names and paths in strings do") {
  CHECK_FALSE(may_be_code("raise RuntimeError('torch.jit.script not supported')\n", "script"));
  CHECK_FALSE(may_be_code("def f():\n    \"\"\"Uses torch.jit.script.\n    \"\"\"\n", "script"));
  CHECK_FALSE(may_be_code("'''\ntorch.jit.script\n'''\n", "script"));
  CHECK(may_be_code("setattr(torch.backends.cudnn, \"allow_tf32\", True)\n", "allow_tf32"));
  CHECK(may_be_code("torch.compile(m, backend='onnxrt')\n", "onnxrt"));
  CHECK(may_be_code("mock.patch(\"torch.jit.script\")\n", "script"));
}

TEST_CASE("string ends are found through escapes, prefixes and triple quotes") {
  CHECK(may_be_code("s = 'it\\'s prose'; torch.jit.script(m)\n", "script"));
  CHECK(may_be_code("s = r\"a b\\\\\"; torch.jit.script(m)\n", "script"));
  CHECK(may_be_code("s = b'a b' + rb\"c d\"\ntorch.jit.script(m)\n", "script"));
  CHECK(may_be_code("s = \"\"\"a \"quoted\" b\"\"\"\ntorch.jit.script(m)\n", "script"));
  CHECK(may_be_code("s = \"\"\ntorch.jit.script(m)\n", "script"));
  // An unterminated one-line string ends with its line.
  CHECK(may_be_code("s = 'a b\ntorch.jit.script(m)\n", "script"));
  CHECK_FALSE(may_be_code("s = 'a b torch.jit.script(m)\n", "script"));
}

TEST_CASE("f-strings hold code, and quotes inside their braces make every later word count") {
  CHECK(may_be_code("print(f'{torch.jit.script(m)} done')\n", "script"));
  CHECK(may_be_code("s = f'{d[\"k\"]} x'\n# torch.jit.script\n", "script"));
  CHECK_FALSE(may_be_code("s = f'{{a}} b'\n# torch.jit.script\n", "script"));
}

TEST_CASE("queries may go back: an earlier offset is read again from the start") {
  std::string text = "x = 1  # jit\nm = jit.script(m)\n";
  WordPlaces places(text);
  CHECK(places.may_be_code(text.find("script")));
  CHECK_FALSE(places.may_be_code(text.find("jit")));
  CHECK(places.may_be_code(text.rfind("jit")));
}
