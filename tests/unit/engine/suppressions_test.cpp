// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

std::vector<std::string> codes_of(const std::string& text, std::vector<std::string> select = {}, Language language = Language::Python,
                                  const std::string& path = "t.py") {
  Settings settings;
  settings.selection.select = std::move(select);
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  std::vector<std::string> codes;
  for (const Diagnostic& diagnostic : linter.lint(SourceFile(path, text, language))) {
    codes.push_back(diagnostic.code + "@" + std::to_string(SourceFile(path, text).location(diagnostic.range.start).line));
  }
  return codes;
}

const std::string kCall = "torch.export.export(m, (x,))";

}  // namespace

TEST_CASE("noqa comments suppress by code, prefix or blanket, on their own line only") {
  CHECK(codes_of("import torch\n" + kCall + "  # noqa: TM201\n").empty());
  CHECK(codes_of("import torch\n" + kCall + "  # noqa: TM2\n").empty());
  CHECK(codes_of("import torch\n" + kCall + "  # NOQA\n").empty());
  CHECK(codes_of("import torch\n" + kCall + "  # noqa:E501,TM201\n").empty());
  CHECK(codes_of("import torch\n" + kCall + "  # noqa: TM101\n") == std::vector<std::string>{"TM201@2"});
  CHECK(codes_of("import torch\n# noqa: TM201\n" + kCall + "\n") == std::vector<std::string>{"TM201@3"});
  // A string that looks like a directive is not one.
  CHECK(codes_of("import torch\ns = '# noqa'; " + kCall + "\n") == std::vector<std::string>{"TM201@2"});
}

TEST_CASE("a file-level directive suppresses the whole file") {
  CHECK(codes_of("# torchmigrate: noqa\nimport torch\n" + kCall + "\n").empty());
  CHECK(codes_of("# torchmigrate: noqa: TM2\nimport torch\n" + kCall + "\n").empty());
  CHECK(codes_of("# torchmigrate: noqa: TM1\nimport torch\n" + kCall + "\n") == std::vector<std::string>{"TM201@3"});
}

TEST_CASE("unused suppressions are reported as TM001 with a fix") {
  std::string text = "import torch\nx = 1  # noqa: TM201\n" + kCall + "  # noqa: TM201, TM101, E501\n";
  CHECK(codes_of(text, {"TM001", "TM201"}) == std::vector<std::string>{"TM001@2", "TM001@3"});
  Settings settings;
  settings.selection.select = {"TM001", "TM201"};
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  SourceFile file("t.py", text, Language::Python);
  std::vector<Diagnostic> diagnostics = linter.lint(file);
  REQUIRE(diagnostics.size() == 2);
  CHECK(apply_edits(text, diagnostics[0].fixes[0].edits) == "import torch\nx = 1\n" + kCall + "  # noqa: TM201, TM101, E501\n");
  CHECK(diagnostics[1].message == "Unused suppression for `TM101`");
  CHECK(apply_edits(text, diagnostics[1].fixes[0].edits) == "import torch\nx = 1  # noqa: TM201\n" + kCall + "  # noqa: TM201, E501\n");
}

TEST_CASE("a file is parsed for TM001 only when a directive may name one of our codes") {
  // Parsing is observable through the syntax-error note, which only a parsed file gets.
  const std::string broken = "x = (\n";
  CHECK(codes_of(broken + "y = 1  # noqa: E501\n", {"TM001"}).empty());
  CHECK(codes_of(broken + "y = 1  # NOQA\n", {"TM001"}).empty());
  CHECK(codes_of(broken + "y = 1  # noqa: tm201\n", {"TM001"}).empty());  // not our code: case as written
  CHECK(codes_of(broken + "y = 1  # noqa: TM201\n", {"TM001"}) == std::vector<std::string>{"TM901@1", "TM001@2"});
  CHECK(codes_of("x = 1  # noqa: E501, TM201\n", {"TM001"}) == std::vector<std::string>{"TM001@1"});
  CHECK(codes_of("int x;  // NOLINT(TM151)\n", {"TM001"}, Language::Cxx, "t.cpp") ==
        std::vector<std::string>{"TM001@1"});
}

TEST_CASE("NOLINT, NOLINTNEXTLINE and NOLINTBEGIN/END are parsed for C and C++") {
  SourceFile file("a.cpp",
                  "int a = kDLGPU;  // NOLINT(TM151)\n"
                  "// NOLINTNEXTLINE(TM151)\n"
                  "int b = kDLGPU;\n"
                  "// NOLINTBEGIN(TM1)\n"
                  "int c = kDLGPU;\n"
                  "int d = kDLGPU;\n"
                  "// NOLINTEND(TM1)\n"
                  "int e = kDLGPU;\n",
                  Language::Cxx);
  Suppressions suppressions = Suppressions::parse(file);
  std::vector<Diagnostic> diagnostics;
  for (uint32_t line : {0u, 2u, 4u, 5u, 7u}) {
    Diagnostic& diagnostic = diagnostics.emplace_back();
    diagnostic.code = "TM151";
    diagnostic.range = {file.lines().line_start(line) + 8, file.lines().line_start(line) + 14};
  }
  suppressions.apply(file, diagnostics);
  REQUIRE(diagnostics.size() == 1);
  CHECK(file.location(diagnostics[0].range.start).line == 8);
}

TEST_CASE("noqa edits merge into an existing directive or append a new one") {
  SourceFile python("t.py", "a = 1\nb = 2  # noqa: TM201\n", Language::Python);
  Suppressions suppressions = Suppressions::parse(python);
  CHECK(apply_edits(python.text(), {*noqa_edit(python, suppressions, 0, {"TM101"})}) ==
        "a = 1  # noqa: TM101\nb = 2  # noqa: TM201\n");
  CHECK(apply_edits(python.text(), {*noqa_edit(python, suppressions, 1, {"TM101"})}) ==
        "a = 1\nb = 2  # noqa: TM201, TM101\n");
  // The list is extended where it ends; the rest of the comment stays as written.
  SourceFile worded("w.py", "c = 3  # noqa:TM201,E501 see issue 12   \nd = 4   \n", Language::Python);
  Suppressions worded_suppressions = Suppressions::parse(worded);
  CHECK(apply_edits(worded.text(), {*noqa_edit(worded, worded_suppressions, 0, {"TM101", "TM105"})}) ==
        "c = 3  # noqa:TM201,E501, TM101, TM105 see issue 12   \nd = 4   \n");
  CHECK(apply_edits(worded.text(), {*noqa_edit(worded, worded_suppressions, 1, {"TM101"})}) ==
        "c = 3  # noqa:TM201,E501 see issue 12   \nd = 4  # noqa: TM101\n");
  CHECK_FALSE(noqa_edit(worded, worded_suppressions, 0, {"TM201"}).has_value());
  SourceFile cxx("a.cpp", "int a = kDLGPU;\n", Language::Cxx);
  CHECK(apply_edits(cxx.text(), {*noqa_edit(cxx, Suppressions::parse(cxx), 0, {"TM151"})}) ==
        "int a = kDLGPU;  // NOLINT(TM151)\n");
  SourceFile docker("Dockerfile", "FROM x\nENV TORCH_CUDA_ARCH_LIST=6.1\n", Language::BuildFile);
  CHECK(apply_edits(docker.text(), {*noqa_edit(docker, Suppressions::parse(docker), 1, {"TM401"})}) ==
        "FROM x\n# noqa: TM401\nENV TORCH_CUDA_ARCH_LIST=6.1\n");
}
