// SPDX-License-Identifier: MIT
// The check of TOML text before toml++ parses it: non-ASCII characters are refused outside
// strings and comments (where TOML 1.0 does not allow them and toml++ 3.3.0 misbehaves).
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/buildfiles/syntax_check.hpp"
#include "torchmigrate/buildfiles/toml_guard.hpp"

using torchmigrate::buildfiles::toml_text_problem;
using torchmigrate::buildfiles::TomlTextProblem;

namespace {
// "line:column: description" of the first problem, or "" when there is none.
std::string problem(std::string_view text) {
  std::optional<TomlTextProblem> found = toml_text_problem(text);
  if (!found) return "";
  return std::to_string(found->line) + ":" + std::to_string(found->column) + ": " + found->description;
}

constexpr const char* kRefused = "non-ASCII character outside a string or comment";
}  // namespace

TEST_CASE("toml guard: non-ASCII characters in strings and comments are allowed") {
  CHECK(problem("name = \"Gr\xC3\xBC\xC3\x9F"
                "e\"\n") == "");
  CHECK(problem("name = 'caf\xC3\xA9'\n") == "");
  CHECK(problem("\"cl\xC3\xA9\" = 1\n'k\xC3\xA9y' = 2\n") == "");  // quoted keys are strings
  CHECK(problem("a = 1  # r\xC3\xA9sum\xC3\xA9 \xEF\xBB\xAF\n# \xE2\x9C\x93 done\n") == "");
  CHECK(problem("s = \"\"\"\nline \xC3\xA9\n\"\"\"\nt = '''\n\xEF\xBB\xAF\n'''\n") == "");
  CHECK(problem("") == "");
  CHECK(problem("plain = \"ascii only\"\n") == "");
}

TEST_CASE("toml guard: non-ASCII characters elsewhere are refused with their line and column") {
  // The fuzz finding: U+FEEF in a bare key.
  CHECK(problem("[project]\nnam\xEF\xBB\xAF"
                "e = \"x\"\n") == std::string("2:4: ") + kRefused);
  CHECK(problem("a = \xC3\xA9\n") == std::string("1:5: ") + kRefused);
  // Columns count characters, not bytes, as toml++ does.
  CHECK(problem("a = \"\xC3\xA9\xC3\xA9\" \xC2\xA0\n") == std::string("1:10: ") + kRefused);
  CHECK(problem("x = 1\ny = 2\n\xC2\xA0z = 3\n") == std::string("3:1: ") + kRefused);
}

TEST_CASE("toml guard: where strings and comments end") {
  // A `#` inside a string starts no comment.
  CHECK(problem("a = \"# not a comment\" \xC3\xA9\n") == std::string("1:23: ") + kRefused);
  CHECK(problem("a = '# not a comment' \xC3\xA9\n") == std::string("1:23: ") + kRefused);
  // Escaped quotes do not end a basic string; a literal string has no escapes.
  CHECK(problem("a = \"say \\\"h\xC3\xA9\\\" \\\\\"\n") == "");
  CHECK(problem("a = 'C:\\' \xC3\xA9\n") == std::string("1:11: ") + kRefused);
  CHECK(problem("a = \"x\\\\\" \xC3\xA9\n") == std::string("1:11: ") + kRefused);
  // A comment ends with its line; a single-line string too (toml++ reports the unclosed one).
  CHECK(problem("a = 1 # \xC3\xA9\n\xC3\xA9\n") == std::string("2:1: ") + kRefused);
  CHECK(problem("a = \"open\n\xC3\xA9\n") == std::string("2:1: ") + kRefused);
  // Multi-line strings span lines, with escaped quotes and line-ending backslashes in basic ones,
  // and may end with one or two quotes of content.
  CHECK(problem("s = \"\"\"a \\\"\"\"\n# \xC3\xA9 \\\n\"\"\" \xC3\xA9\n") == std::string("3:5: ") + kRefused);
  CHECK(problem("s = \"\"\"x\"\"\"\"\" \xC3\xA9\n") == std::string("1:15: ") + kRefused);
  CHECK(problem("s = '''x''''' \xC3\xA9\n") == std::string("1:15: ") + kRefused);
  CHECK(problem("s = '''\n'' \xC3\xA9 ''\n''' # \xC3\xA9\n") == "");
  // An empty string is not the start of a multi-line one.
  CHECK(problem("a = \"\" \xC3\xA9\n") == std::string("1:8: ") + kRefused);
  CHECK(problem("a = '' \xC3\xA9\n") == std::string("1:8: ") + kRefused);
}

TEST_CASE("toml guard: a non-ASCII character toml++ would test after a backslash is refused") {
  const std::string refused =
      "non-ASCII character right after a backslash, or after the line break a backslash ends, "
      "in a string (write it as a \\uXXXX escape)";
  // Valid TOML, but toml++ tests the first character after a line-ending backslash's whitespace.
  CHECK(problem("s = \"\"\"x \\\n  \xC3\xA9t\xC3\xA9\"\"\"\n") == "2:3: " + refused);
  CHECK(problem("s = \"\"\"x \\  \r\n\n\t\xEF\xBB\xAF\"\"\"\n") == "3:2: " + refused);
  // Not escapes at all.
  CHECK(problem("s = \"\"\"x\\\xC3\xA9\"\"\"\n") == "1:10: " + refused);
  CHECK(problem("s = \"x\\\xC3\xA9\"\n") == "1:8: " + refused);
  // Further on, and after an escaped backslash, the character is content as usual.
  CHECK(problem("s = \"\"\"x \\\n  t\xC3\xA9\"\"\"\n") == "");
  CHECK(problem("s = \"\"\"x\\\\\xC3\xA9 \\u00E9\"\"\"\n") == "");
  CHECK(problem("s = '''x\\\xC3\xA9'''\n") == "");  // a literal string has no escapes
}

TEST_CASE("toml guard: a quote opens a string only where a key or a value may start") {
  // After a bare value, toml++ reads on through the quote and tests what follows for whitespace.
  CHECK(problem("x = 1'\xD1\xA3 true\n") == std::string("1:7: ") + kRefused);
  CHECK(problem("x = true\"\xC3\xA9\"\n") == std::string("1:10: ") + kRefused);
  CHECK(problem("k\"\xC3\xA9\" = 1\n") == std::string("1:3: ") + kRefused);
  // Keys and values in every place TOML allows them, spaces and tabs before them included.
  const std::string valid =
      "\"\xC3\xA9x\" = 1\n[ \"\xC3\xA9\" . '\xC3\xA9' ]\n[[\"\xC3\xBC\"]]\na.\t\"\xC3\xA9\" = [\"\xC3\xA9\",\n  "
      "'\xC3\xA9', # \xC3\xA9\n"
      "\"\xC3\xA9\"]\nt = { \"\xC3\xA9\" = 1, '\xC3\xBC' = \"\xC3\xA9\" }\n";
  CHECK(problem(valid) == "");
  CHECK(torchmigrate::buildfiles::syntax_errors(
            torchmigrate::buildfiles::BuildFile::read(valid, torchmigrate::buildfiles::FileKind::Toml)) == 0);
}

TEST_CASE("toml guard: a UTF-8 byte order mark is allowed at the start only") {
  CHECK(problem("\xEF\xBB\xBFname = \"x\"\n") == "");
  CHECK(problem("\xEF\xBB\xBF"
                "a = \xC3\xA9\n") == std::string("1:5: ") + kRefused);
  CHECK(problem("a = 1\n\xEF\xBB\xBF"
                "b = 2\n") == std::string("2:1: ") + kRefused);
}

TEST_CASE("toml guard: refused text is a TOML error to the fixer's check and the requirement reader") {
  using namespace torchmigrate::buildfiles;
  const std::string refused =
      "[project]\ndependencies = [\"torch\"]\nnam\xEF\xBB\xAF"
      "e = \"x\"\n";
  CHECK(syntax_errors(BuildFile::read(refused, FileKind::Toml)) == 1);
  std::optional<FormatError> error;
  CHECK(find_requirements(BuildFile::read(refused, FileKind::Toml), "torch", &error).empty());
  REQUIRE(error);
  CHECK(error->line == 3);
  CHECK(error->what == std::string("not valid TOML (") + kRefused + ")");
  const std::string accepted = "\xEF\xBB\xBF[project]\ndependencies = [\"torch\"]  # \xEF\xBB\xAF\n";
  CHECK(syntax_errors(BuildFile::read(accepted, FileKind::Toml)) == 0);
  CHECK(find_requirements(BuildFile::read(accepted, FileKind::Toml), "torch").size() == 1);
}
