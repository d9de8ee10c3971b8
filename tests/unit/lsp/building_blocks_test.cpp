// SPDX-License-Identifier: MIT
// The pieces under the server: framing, UTF-16 positions, URIs, incremental document edits
// (text and tree), suppression comments and fix-all edits.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/lsp/actions.hpp"
#include "torchmigrate/lsp/documents.hpp"
#include "torchmigrate/lsp/positions.hpp"
#include "torchmigrate/lsp/transport.hpp"
#include "torchmigrate/lsp/uri.hpp"

using namespace torchmigrate;
using namespace torchmigrate::lsp;

namespace {

std::string sexp(const python::SyntaxTree& tree) {
  char* text = ts_node_string(tree.root().raw());
  std::string copy(text);
  std::free(text);
  return copy;
}

ContentChange change(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2, std::string text) {
  return {Range{{l1, c1}, {l2, c2}}, std::move(text)};
}

}  // namespace

TEST_CASE("transport: reads frames byte-exactly and writes Content-Length framed JSON") {
  std::istringstream in("Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
                        "\r\nCONTENT-LENGTH:  4 \r\n\r\n\"é\"Content-Length: 10\r\n\r\n{}");
  std::ostringstream out;
  Transport transport(in, out);
  Frame first = transport.read();
  CHECK(first.status == Frame::Status::Message);
  CHECK(first.body == "{}");
  Frame second = transport.read();  // a stray blank line before the header is skipped
  CHECK(second.status == Frame::Status::Message);
  CHECK(second.body == "\"é\"");
  CHECK(transport.read().status == Frame::Status::EndOfStream);  // truncated body
  transport.write({{"a", "é"}});
  CHECK(out.str() == "Content-Length: 10\r\n\r\n{\"a\":\"é\"}");  // bytes, not characters
}

TEST_CASE("transport: a header without a usable Content-Length is reported and reading goes on") {
  std::istringstream in("Content-Length: 99999999999999\r\n\r\nX-Junk\r\n\r\nContent-Length: 2\r\n\r\n[]");
  std::ostringstream out;
  Transport transport(in, out);
  Frame too_long = transport.read();
  CHECK(too_long.status == Frame::Status::BadHeader);
  CHECK(too_long.error == "invalid Content-Length `99999999999999`");
  Frame junk = transport.read();
  CHECK(junk.status == Frame::Status::BadHeader);
  CHECK(junk.error == "malformed header line");
  Frame good = transport.read();
  CHECK(good.status == Frame::Status::Message);
  CHECK(good.body == "[]");
}

TEST_CASE("positions: UTF-16 columns count BMP characters once and astral characters twice") {
  SourceFile file("t.py", "aé😀b\r\n\xff z\n", Language::Python);
  PositionMapper mapper(file);
  CHECK(mapper.position(0) == Position{0, 0});
  CHECK(mapper.position(1) == Position{0, 1});  // é starts at byte 1
  CHECK(mapper.position(3) == Position{0, 2});  // 😀 starts at byte 3
  CHECK(mapper.position(7) == Position{0, 4});  // b
  CHECK(mapper.position(5) == Position{0, 2});  // inside 😀: its start
  CHECK(mapper.position(8) == Position{0, 5});  // \r
  CHECK(mapper.position(10) == Position{1, 0});
  CHECK(mapper.position(12) == Position{1, 2});  // an invalid byte counts as one unit
  CHECK(mapper.offset({0, 4}) == 7);
  CHECK(mapper.offset({0, 3}) == 3);    // inside the surrogate pair: the character's start
  CHECK(mapper.offset({0, 50}) == 8);   // past the line: its end, before \r\n
  CHECK(mapper.offset({9, 0}) == 14);   // past the text: its end
  CHECK(mapper.offset({2, 0}) == 14);   // the empty last line
  CHECK(character_size("\xf0\x9f\x98", 0).bytes == 1);  // a cut sequence is not a character
}

TEST_CASE("uri: file URIs are percent-decoded; other schemes have no path") {
  CHECK(path_from_uri("file:///home/u/my%20project/%C3%A9.py") == std::filesystem::path("/home/u/my project/é.py"));
  CHECK(path_from_uri("file://localhost/x.py") == std::filesystem::path("/x.py"));
  CHECK_FALSE(path_from_uri("file://server/share/x.py"));
  CHECK_FALSE(path_from_uri("untitled:Untitled-1"));
  CHECK_FALSE(path_from_uri("file:///bad%2"));
  CHECK(uri_from_path("/home/u/my project/é.py") == "file:///home/u/my%20project/%C3%A9.py");
}

TEST_CASE("documents: incremental edits give the same text and tree as parsing the result afresh") {
  std::string text = "import torch\n\ndef f(m, x):\n    s = \"é😀\"\n    return torch.export.export(m, (x,))\n";
  Document document("file:///t.py", std::filesystem::path("/t.py"), Language::Python, 1, text);
  document.apply_changes({change(4, 38, 4, 38, ", strict=True"), change(3, 10, 3, 12, "\n    y = (\n"),
                          change(0, 0, 0, 0, "# header ü\n")},
                         2);
  std::string expected =
      "# header ü\nimport torch\n\ndef f(m, x):\n    s = \"é\n    y = (\n\"\n    return torch.export.export(m, (x,), "
      "strict=True)\n";
  CHECK(document.file().text() == expected);
  CHECK(document.version() == 2);
  REQUIRE(document.tree() != nullptr);
  CHECK(sexp(*document.tree()) == sexp(python::SyntaxTree::parse(expected)));
  // Undo the damage: the tree recovers from the syntax error just as a fresh parse does.
  document.apply_changes({change(4, 10, 6, 1, "😀\"")}, 3);
  std::string repaired =
      "# header ü\nimport torch\n\ndef f(m, x):\n    s = \"é😀\"\n    return torch.export.export(m, (x,), strict=True)\n";
  CHECK(document.file().text() == repaired);
  CHECK(sexp(*document.tree()) == sexp(python::SyntaxTree::parse(repaired)));
  // A change without a range replaces everything.
  document.apply_changes({ContentChange{std::nullopt, "x = 1\n"}, change(0, 0, 0, 1, "y")}, 4);
  CHECK(document.file().text() == "y = 1\n");
  CHECK(sexp(*document.tree()) == sexp(python::SyntaxTree::parse("y = 1\n")));
}

TEST_CASE("linter: linting with an already parsed tree equals linting the text") {
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), {});
  SourceFile file("t.py", "import torch\nep = torch.export.export(m, (x,))\n$\n", Language::Python);
  python::SyntaxTree tree = python::SyntaxTree::parse(file.text());
  std::vector<Diagnostic> with_tree = linter.lint(file, tree);
  std::vector<Diagnostic> plain = linter.lint(file);
  REQUIRE(with_tree.size() == 2);  // the syntax error and TM201
  REQUIRE(plain.size() == with_tree.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(plain[i].code == with_tree[i].code);
    CHECK(plain[i].range == with_tree[i].range);
  }
}

namespace {

std::optional<std::string> suppressed(const std::string& text, Language language, const std::string& path = "/p/x",
                                      uint32_t offset = 0) {
  Document document("file://" + path, std::filesystem::path(path), language, 1, text);
  Diagnostic diagnostic;
  diagnostic.code = "TM201";
  diagnostic.range = {offset, offset + 1};
  auto suppression = suppression_edit(document, diagnostic, engine::Catalog::builtin());
  if (!suppression) return std::nullopt;
  return apply_edits(text, {suppression->edit});
}

}  // namespace

TEST_CASE("suppressions: noqa for Python, extending an existing list, never inside strings") {
  CHECK(suppressed("f(x)\n", Language::Python) == "f(x)  # noqa: TM201\n");
  CHECK(suppressed("f(x)   \r\n", Language::Python) == "f(x)  # noqa: TM201\r\n");
  CHECK(suppressed("f(x)  # noqa: TM101\n", Language::Python) == "f(x)  # noqa: TM101, TM201\n");
  CHECK(suppressed("f(x)  # noqa:TM101,E501 more words\n", Language::Python) ==
        "f(x)  # noqa:TM101,E501, TM201 more words\n");
  CHECK(suppressed("f(x)  # keep this\n", Language::Python) == "f(x)  # keep this  # noqa: TM201\n");
  CHECK(suppressed("f('# noqa: TM101')\n", Language::Python) == "f('# noqa: TM101')  # noqa: TM201\n");
  CHECK_FALSE(suppressed("f(x)  # noqa\n", Language::Python));
  CHECK_FALSE(suppressed("f(x)  # NOQA: TM201\n", Language::Python));
  // A line that ends inside a string or continues with a backslash gets it where the string
  // closes or the continued line ends, as Ruff reads it.
  CHECK(suppressed("f(x, '''a\nb''')\n", Language::Python) == "f(x, '''a\nb''')  # noqa: TM201\n");
  CHECK(suppressed("y = f(x) + \\\n  1\n", Language::Python) == "y = f(x) + \\\n  1  # noqa: TM201\n");
  CHECK(suppressed("y = f(x) + \\\n  1  # noqa: TM101\n", Language::Python) ==
        "y = f(x) + \\\n  1  # noqa: TM101, TM201\n");
  CHECK(suppressed("f(x,\n  y)\n", Language::Python) == "f(x,  # noqa: TM201\n  y)\n");
}

TEST_CASE("suppressions: NOLINT for C++, noqa for build files (in a Dockerfile on the line above)") {
  CHECK(suppressed("at::foo(x);\n", Language::Cxx, "/p/a.cpp") == "at::foo(x);  // NOLINT(TM201)\n");
  CHECK(suppressed("at::foo(x); // NOLINT(TM101)\n", Language::Cxx, "/p/a.cpp") ==
        "at::foo(x); // NOLINT(TM101,TM201)\n");
  CHECK_FALSE(suppressed("at::foo(x); // NOLINT\n", Language::Cxx, "/p/a.cpp"));
  CHECK(suppressed("at::foo(x); // NOLINTNEXTLINE(TM1)\n", Language::Cxx, "/p/a.cpp") ==
        "at::foo(x); // NOLINTNEXTLINE(TM1)  // NOLINT(TM201)\n");
  CHECK(suppressed("torch==2.7.1\n", Language::BuildFile, "/p/requirements.txt") == "torch==2.7.1  # noqa: TM201\n");
  CHECK(suppressed("RUN pip install torch==2.7.1\n", Language::BuildFile, "/p/Dockerfile") ==
        "# noqa: TM201\nRUN pip install torch==2.7.1\n");
  CHECK(suppressed("FROM pytorch/pytorch:2.7.1\n", Language::BuildFile, "/p/Dockerfile") ==
        "# noqa: TM201\nFROM pytorch/pytorch:2.7.1\n");
  CHECK_FALSE(suppressed("set TORCH_CUDA_ARCH_LIST=6.1\n", Language::BuildFile, "/p/env.cmd"));
  // A build file's strings are unknown: its continued lines are left to the user.
  CHECK_FALSE(suppressed("pip install \\\n  torch==2.7.1\n", Language::BuildFile, "/p/setup.sh"));
  Document internal("file:///p/x.py", std::filesystem::path("/p/x.py"), Language::Python, 1, "$\n");
  Diagnostic syntax_error;
  syntax_error.code = kParseErrorCode;
  CHECK_FALSE(suppression_edit(internal, syntax_error, engine::Catalog::builtin()));
}

TEST_CASE("minimal_edit: one edit between the common prefix and suffix, on character boundaries") {
  auto check = [](std::string before, std::string after) {
    Edit edit = minimal_edit(before, after);
    CHECK(apply_edits(before, {edit}) == after);
    return edit;
  };
  CHECK(check("f(m, (x,))\n", "f(m, (x,), strict=True)\n").range == TextRange{9, 9});
  CHECK(check("same", "same").range.empty());
  CHECK(check("abc", "").range == TextRange{0, 3});
  // é (C3 A9) and è (C3 A8) share a first byte: the edit must still cover the whole character.
  Edit accent = check("xé", "xè");
  CHECK(accent.range == TextRange{1, 3});
  CHECK(accent.replacement == "è");
  check("aXa", "aXXa");
}
