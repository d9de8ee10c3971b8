// SPDX-License-Identifier: MIT
// A `# noqa` at the end of a backslash-continued line or of the line where a multi-line string
// closes covers findings on every line of it (Ruff's reading); TM001 and --add-noqa agree.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/lint/noqa_lines.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

// "first-last" for each span of several lines, 0-based.
std::vector<std::string> spans_of(const std::string& text) {
  SourceFile file("t.py", text, Language::Python);
  python::SyntaxTree tree = python::SyntaxTree::parse(file.text());
  NoqaLines lines = NoqaLines::of(file, tree, python_comments(tree));
  std::vector<std::string> out;
  for (const NoqaLines::Span& span : lines.spans()) {
    out.push_back(std::to_string(span.first) + "-" + std::to_string(span.last));
  }
  return out;
}

std::vector<std::string> findings(const std::string& text, std::vector<std::string> select) {
  Settings settings;
  settings.selection.select = std::move(select);
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  SourceFile file("t.py", text, Language::Python);
  std::vector<std::string> out;
  for (const Diagnostic& diagnostic : linter.lint(file)) {
    out.push_back(diagnostic.code + "@" + std::to_string(file.location(diagnostic.range.start).line) + " " +
                  diagnostic.message);
  }
  return out;
}

NoqaResult noqa_added(const std::string& text) {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  SourceFile file("t.py", text, Language::Python);
  return add_noqa(file, linter.lint(file), Catalog::builtin());
}

const std::string kContinued = "import torch\nep = torch.export.export(m, (x,)) + \\\n    0\n";
const std::string kDocString = "import torch\ntorch.onnx.export(m, x, \"f.onnx\", doc=\"\"\"\nhi\"\"\")\n";

}  // namespace

TEST_CASE("noqa lines: continued lines and strings spanning lines map to their last line") {
  CHECK(spans_of("x = 1\ny = 2\n").empty());
  CHECK(spans_of("x = 1 + \\\n  2 + \\\n  3\ny = 4\n") == std::vector<std::string>{"0-2"});
  CHECK(spans_of("x = '''a\nb\n'''\n") == std::vector<std::string>{"0-2"});
  CHECK(spans_of("x = f'''{y}\n{'''z\n'''}'''\n") == std::vector<std::string>{"0-2"});
  // A quoted string continued by a backslash: its first line's `\` is inside the string.
  CHECK(spans_of("x = 'a\\\nb'\n") == std::vector<std::string>{"0-1"});
  // A string that closes on a continued line: one span.
  CHECK(spans_of("x = '''a\n''' + \\\n  1\n") == std::vector<std::string>{"0-2"});
  // Two strings sharing a line: one span.
  CHECK(spans_of("x = '''a\n''' + '''b\n'''\n") == std::vector<std::string>{"0-2"});
  // A comment ending in `\` joins nothing; nor does a bracket spanning lines (as Ruff).
  CHECK(spans_of("x = 1  # a \\\ny = 2\n").empty());
  CHECK(spans_of("x = f(1,\n  2)\n").empty());
  CHECK(spans_of("x = 1 + \\\r\n  2\r\n") == std::vector<std::string>{"0-1"});
}

TEST_CASE("noqa lines: a directive at the end covers every line of a continued line") {
  CHECK(
      findings(kContinued, {"TM201"}) ==
      std::vector<std::string>{"TM201@2 `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
                               "pass `strict=` explicitly"});
  CHECK(findings("import torch\nep = torch.export.export(m, (x,)) + \\\n    0  # noqa: TM201\n", {"TM001", "TM201"})
            .empty());
  // Only that line's directive: one on the line after, or above, covers nothing here.
  CHECK(
      findings("import torch\nep = torch.export.export(m, (x,)) + \\\n    0\nz = 1  # noqa: TM201\n",
               {"TM001", "TM201"}) ==
      std::vector<std::string>{"TM201@2 `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
                               "pass `strict=` explicitly",
                               "TM001@4 Unused suppression for `TM201`"});
}

TEST_CASE("noqa lines: a directive where a string closes covers the lines of the string") {
  CHECK(findings(kDocString + "", {"TM202"}).size() == 1);
  std::string suppressed =
      "import torch\ntorch.onnx.export(m, x, \"f.onnx\", doc=\"\"\"\nhi\"\"\")  # noqa: TM202, TM302\n";
  CHECK(findings(suppressed, {"TM001", "TM202", "TM302"}).empty());
  // A code that suppresses nothing there is still reported.
  std::string extra = "import torch\ntorch.onnx.export(m, x, \"f.onnx\", doc=\"\"\"\nhi\"\"\")  # noqa: TM202, TM201\n";
  CHECK(findings(extra, {"TM001", "TM202"}) == std::vector<std::string>{"TM001@3 Unused suppression for `TM201`"});
}

TEST_CASE("noqa lines: --add-noqa writes the directive where Ruff reads it") {
  NoqaResult continued = noqa_added(kContinued);
  CHECK(continued.added == 1);
  CHECK(continued.skipped_lines.empty());
  CHECK(continued.text == "import torch\nep = torch.export.export(m, (x,)) + \\\n    0  # noqa: TM201\n");
  NoqaResult doc = noqa_added(kDocString);
  CHECK(doc.skipped_lines.empty());
  CHECK(doc.text == "import torch\ntorch.onnx.export(m, x, \"f.onnx\", doc=\"\"\"\nhi\"\"\")  # noqa: TM202, TM302\n");
  // Findings on several lines of one span share one directive, merged into one already there.
  NoqaResult merged = noqa_added(
      "import torch\nep = torch.export.export(m, (x,)) + \\\n    torch.onnx.export(m, x, 'f')  # noqa: E501\n");
  CHECK(merged.added == 1);
  CHECK(merged.text ==
        "import torch\nep = torch.export.export(m, (x,)) + \\\n    torch.onnx.export(m, x, 'f')  # noqa: E501, TM201, "
        "TM202, TM302\n");
  // What it wrote suppresses everything, with no unused code.
  CHECK(findings(merged.text, {"TM001", "TM2", "TM3"}).empty());
  CHECK(findings(doc.text, {"TM001", "TM2", "TM3"}).empty());
}
