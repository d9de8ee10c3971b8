// SPDX-License-Identifier: MIT
// Unit tests of the readers added for cmd.exe scripts, Singularity/Apptainer definitions and
// the `os.environ` spellings of setup.py.
#include <catch2/catch.hpp>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using namespace torchmigrate::buildfiles;

namespace {

std::vector<Assignment> find(std::string_view text, FileKind kind) {
  BuildFile file = BuildFile::read(text, kind);
  return find_assignments(file, {"X"});
}

std::string slice(std::string_view text, TextRange range) { return std::string(text.substr(range.start, range.length())); }

std::vector<Diagnostic> lint(const std::string& path, const std::string& text, const std::string& code) {
  engine::Settings settings;
  settings.selection.select = {code};
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile(path, text, engine::language_for(path)));
}

}  // namespace

TEST_CASE("cmd scripts and container definitions are build files") {
  CHECK(kind_for("build.bat") == FileKind::Batch);
  CHECK(kind_for("scripts/Build.CMD") == FileKind::Batch);
  CHECK(kind_for("Singularity") == FileKind::Singularity);
  CHECK(kind_for("containers/Singularity.cuda12") == FileKind::Singularity);
  CHECK(kind_for("Apptainer") == FileKind::Singularity);
  CHECK(kind_for("train.def") == FileKind::Singularity);
  CHECK(kind_for("singularity.sh") == FileKind::Shell);       // a script about singularity
  CHECK(kind_for("docs/singularity.md") == FileKind::Unknown);  // a page about it
  CHECK(kind_for("singularity_notes") == FileKind::Unknown);
  CHECK(parse_kind("batch") == FileKind::Batch);
  CHECK(parse_kind("singularity") == FileKind::Singularity);
  CHECK(engine::language_for("build.bat") == Language::BuildFile);
  CHECK(engine::language_for("Singularity") == Language::BuildFile);
}

TEST_CASE("cmd logical lines: REM and :: comments, `& rem` tails, `^` continuations") {
  std::string text = "REM set X=1\r\n:: set X=2\r\n@rem\r\nset X=3 & rem set X=4\r\nset \"X=a & rem b\"\r\nset X=5;^\r\n6\r\necho #1\r\n";
  std::vector<LogicalLine> lines = logical_lines(text, FileKind::Batch);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0].text.empty());
  CHECK(lines[1].text.empty());
  CHECK(lines[2].text.empty());
  CHECK(lines[3].text == "set X=3 ");
  CHECK(lines[4].text == "set \"X=a & rem b\"");  // quoted: no comment
  CHECK(lines[5].text == "set X=5;6");
  CHECK(lines[6].text == "echo #1");  // `#` is no comment in cmd
}

TEST_CASE("cmd set and setx, read as cmd.exe reads them") {
  std::string text =
      "set X=6.1;7.0\r\n"
      "set \"X=8.0\" junk\r\n"
      "set X=1 && echo\r\n"
      "set X=\"1\"\r\n"
      "setx X \"7.0 8.0\" /M\r\n"
      "setx X /k HKLM\\Env\\X\r\n"
      "set X=\r\n"
      "set /a X=1\r\n"
      "echo set X=1\r\n"
      "if defined Y set X=2\r\n"
      "(set X=3)\r\n";
  auto found = find(text, FileKind::Batch);
  REQUIRE(found.size() == 7);
  CHECK(found[0].value == "6.1;7.0");
  REQUIRE(found[0].removal.has_value());
  CHECK(slice(text, *found[0].removal) == "set X=6.1;7.0\r\n");
  CHECK(found[1].value == "8.0");  // up to the last quote
  CHECK(slice(text, found[1].name_range) == "X");
  CHECK(found[2].value == "1 ");   // trailing blanks before `&&` belong to the value
  CHECK(slice(text, found[2].value_range) == "1");
  CHECK_FALSE(found[2].removal.has_value());
  CHECK(found[3].value == "\"1\"");  // quotes after `=` are part of the value
  CHECK_FALSE(found[3].value_quoted);
  CHECK(found[4].value == "7.0 8.0");
  CHECK(found[4].value_quoted);
  CHECK(found[5].value == "2");
  CHECK_FALSE(found[5].removal.has_value());  // part of an `if`
  CHECK(found[6].value == "3");
  CHECK_FALSE(found[6].removal.has_value());  // inside a block
}

TEST_CASE("cmd: a set inside a multi-line block cannot be deleted, one after it can") {
  std::string text = "if defined Y (\n  set X=0\n)\nset X=0\n";
  auto found = find(text, FileKind::Batch);
  REQUIRE(found.size() == 2);
  CHECK_FALSE(found[0].removal.has_value());
  REQUIRE(found[1].removal.has_value());
  CHECK(slice(text, *found[1].removal) == "set X=0\n");
}

TEST_CASE("Singularity definitions: only the shell sections are read") {
  std::string text =
      "Bootstrap: docker\nFrom: X=1\n%help\n  export X=1\n%labels\n  X=1\n"
      "%environment\n  export X=6.1\n%post -c /bin/bash\n  X=7.0 pip install .\n  echo $X\n"
      "%files\n  X=2 /opt\n%apprun train\n  exec env X=8.0 python\n";
  auto found = find(text, FileKind::Singularity);
  REQUIRE(found.size() == 3);
  CHECK(found[0].value == "6.1");
  REQUIRE(found[0].removal.has_value());
  CHECK(slice(text, *found[0].removal) == "  export X=6.1\n");
  CHECK(found[1].value == "7.0");
  CHECK(found[2].value == "8.0");
}

TEST_CASE("setup.py: os.environ spellings are read from the syntax tree") {
  std::string text =
      "import os\n"
      "os.environ['TORCH_CUDA_ARCH_LIST'] = '6.1'\n"
      "os.environ.setdefault('TORCH_CUDA_ARCH_LIST', \"\"\"5.0\"\"\")\n"
      "env = dict(os.environ, TORCH_CUDA_ARCH_LIST='6.0')\n"
      "x = os.environ.get('TORCH_CUDA_ARCH_LIST', '6.1')\n"
      "os.environ['TORCH_CUDA_ARCH_LIST'] = ARCHS\n"
      "f(TORCH_CUDA_ARCH_LIST='6.1')\n"
      "# os.environ['TORCH_CUDA_ARCH_LIST'] = '6.1'\n";
  std::vector<Diagnostic> found = lint("pkg/setup.py", text, "TM401");
  REQUIRE(found.size() == 3);
  CHECK(slice(text, found[0].range) == "'6.1'");
  CHECK(found[0].message.find("`6.1`") != std::string::npos);
  CHECK(slice(text, found[1].range) == "\"\"\"5.0\"\"\"");
  CHECK(slice(text, found[2].range) == "'6.0'");
  // Only setup.py is a build file; other Python files are not read by the build rules.
  CHECK(lint("pkg/build_ext.py", text, "TM401").empty());
}

TEST_CASE("TM404 fixes in cmd scripts keep the quoting and line endings") {
  std::string text = "set \"AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0=1\"\r\nsetx AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0 \"1\"\r\n";
  std::vector<Diagnostic> found = lint("run.bat", text, "TM404");
  REQUIRE(found.size() == 2);
  REQUIRE(found[0].fixes.size() == 1);
  REQUIRE(found[1].fixes.size() == 1);
  std::vector<Edit> edits = found[0].fixes[0].edits;
  edits.insert(edits.end(), found[1].fixes[0].edits.begin(), found[1].fixes[0].edits.end());
  CHECK(apply_edits(text, edits) ==
        "set \"AOT_INDUCTOR_COMPILE_WRAPPER_OPT_LEVEL=O0\"\r\nsetx AOT_INDUCTOR_COMPILE_WRAPPER_OPT_LEVEL \"O0\"\r\n");
}

TEST_CASE("--add-noqa leaves cmd scripts alone: appended text would join a set value") {
  std::string text = "set TORCH_CUDA_ARCH_LIST=6.1\r\n";
  SourceFile file("build.bat", text, Language::BuildFile);
  std::vector<Diagnostic> found = lint("build.bat", text, "TM401");
  REQUIRE(found.size() == 1);
  engine::NoqaResult result = engine::add_noqa(file, found, engine::Catalog::builtin());
  CHECK(result.text == text);
  CHECK(result.added == 0);
  CHECK(result.skipped_lines == std::vector<uint32_t>{1});
}
