// SPDX-License-Identifier: MIT
// The comment syntax of each kind of file (engine/lint/comment_syntax.hpp), and how reading and
// writing suppression directives follow it.
#include <catch2/catch.hpp>

#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/lint/comment_syntax.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

// One line per syntax, so a failing check shows the whole row.
std::string row(Language language, std::string_view path) {
  CommentSyntax syntax = comment_syntax(language, path);
  std::string text = "'";
  text.append(syntax.line_marker).append("' '").append(syntax.block_marker).append("' ");
  text += syntax.directive_text({"TM101", "TM201"});
  if (syntax.comments_from_tree) text += " tree";
  if (!syntax.writable) text += " unwritable";
  if (syntax.own_line) text += " own-line";
  return text;
}

// The codes left on `line` (0-based) after the file's directives are applied.
std::vector<std::string> left_on(const SourceFile& file, uint32_t line, std::vector<std::string> codes) {
  std::vector<Diagnostic> diagnostics;
  for (std::string& code : codes) {
    Diagnostic& diagnostic = diagnostics.emplace_back();
    diagnostic.code = std::move(code);
    diagnostic.range = {file.lines().line_start(line), file.lines().line_start(line) + 1};
  }
  Suppressions::parse(file).apply(file, diagnostics);
  std::vector<std::string> left;
  for (const Diagnostic& diagnostic : diagnostics) left.push_back(diagnostic.code);
  return left;
}

}  // namespace

TEST_CASE("comment syntax: one row per kind of file") {
  const std::string noqa = "'#' '' # noqa: TM101, TM201";
  CHECK(row(Language::Python, "/p/t.py") == noqa + std::string(" tree"));
  CHECK(row(Language::Cxx, "/p/a.cpp") == "'//' '/*' // NOLINT(TM101,TM201)");
  CHECK(row(Language::Cxx, "/p/k.cu") == "'//' '/*' // NOLINT(TM101,TM201)");
  CHECK(row(Language::BuildFile, "/p/requirements.txt") == noqa);
  CHECK(row(Language::BuildFile, "/p/CMakeLists.txt") == noqa);
  CHECK(row(Language::BuildFile, "/p/.github/workflows/ci.yml") == noqa);
  CHECK(row(Language::BuildFile, "/p/setup.cfg") == noqa);
  for (const char* dockerfile : {"Dockerfile", "/p/Dockerfile", "/p/Dockerfile.cuda", "/p/gpu.dockerfile",
                                 "/p/gpu.Dockerfile", "/p/Dockerfile.cmd"}) {
    CAPTURE(dockerfile);
    CHECK(row(Language::BuildFile, dockerfile) == noqa + std::string(" own-line"));
  }
  for (const char* batch : {"/p/env.cmd", "/p/setup.bat", "/p/SETUP.BAT"}) {
    CAPTURE(batch);
    CHECK(row(Language::BuildFile, batch) == noqa + std::string(" unwritable"));
  }
  CHECK(row(Language::Notebook, "/p/n.ipynb") == noqa + std::string(" unwritable"));
  CHECK(row(Language::Unknown, "/p/notes") == noqa + std::string(" unwritable"));
  // The Dockerfile rule goes by the name alone.
  CHECK(row(Language::Python, "/p/Dockerfile_build.py") == noqa + std::string(" tree own-line"));
  // A SourceFile is described by its language and path.
  CHECK(comment_syntax(SourceFile("/p/a.cpp", "", Language::Cxx)) == comment_syntax(Language::Cxx, "/p/a.cpp"));
}

TEST_CASE("comment syntax: directives as written and as an editor action names them") {
  const CommentSyntax python = comment_syntax(Language::Python, "t.py");
  const CommentSyntax cxx = comment_syntax(Language::Cxx, "a.cpp");
  CHECK(python.join({"TM101", "TM2"}) == "TM101, TM2");
  CHECK(cxx.join({"TM101", "TM2"}) == "TM101,TM2");
  CHECK(python.directive_text({"TM101"}) == "# noqa: TM101");
  CHECK(cxx.directive_text({"TM151"}) == "// NOLINT(TM151)");
  CHECK(python.label("TM101") == "# noqa: TM101");
  CHECK(comment_syntax(Language::BuildFile, "/p/Dockerfile").label("TM401") == "# noqa: TM401");
  CHECK(cxx.label("TM151") == "NOLINT(TM151)");
}

TEST_CASE("comment syntax: directives are read with each file's markers") {
  // C/C++: `//` or, on a line without one, `/*`; a `#` starts no comment.
  SourceFile cxx("a.cpp", "int a;  /* NOLINT(TM151) */\nint b;  # noqa: TM151\n", Language::Cxx);
  CHECK(left_on(cxx, 0, {"TM151"}).empty());
  CHECK(left_on(cxx, 1, {"TM151"}) == std::vector<std::string>{"TM151"});
  // Build files: `#`; `//` starts no comment.
  SourceFile cmake("CMakeLists.txt", "set(A 1)  // NOLINT(TM401)\nset(B 1)  # noqa: TM401\n", Language::BuildFile);
  CHECK(left_on(cmake, 0, {"TM401"}) == std::vector<std::string>{"TM401"});
  CHECK(left_on(cmake, 1, {"TM401"}).empty());
  // A Dockerfile's directive on its own line covers the next line; elsewhere only its own.
  SourceFile docker("Dockerfile", "# noqa: TM401\nENV A=1\n", Language::BuildFile);
  CHECK(left_on(docker, 1, {"TM401"}).empty());
  SourceFile shell("build.sh", "# noqa: TM401\nexport A=1\n", Language::BuildFile);
  CHECK(left_on(shell, 1, {"TM401"}) == std::vector<std::string>{"TM401"});
  // A cmd script's `# noqa` is honoured, but none is written there.
  SourceFile batch("env.cmd", "set A=1 # noqa: TM401\nset B=1\n", Language::BuildFile);
  CHECK(left_on(batch, 0, {"TM401"}).empty());
  CHECK_FALSE(line_suppression(batch, nullptr, Suppressions::parse(batch), 1, {"TM401"}).has_value());
  // Python is written only with its tree (a line may end inside a string).
  SourceFile python("t.py", "x = 1\n", Language::Python);
  CHECK_FALSE(line_suppression(python, nullptr, Suppressions::parse(python), 0, {"TM101"}).has_value());
}
