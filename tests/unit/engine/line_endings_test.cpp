// SPDX-License-Identifier: MIT
// A file whose lines end in a lone `\r` (valid Python) lints, suppresses and fixes exactly like
// the same file with `\n`: same findings at the same offsets, no false syntax error, and the
// fixed text keeps its line endings.
#include <catch2/catch.hpp>

#include <algorithm>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

const std::string kLf =
    "import torch\n"
    "\n"
    "def build(m, x):\n"
    "    if x:\n"
    "        ep = torch.export.export(m, (x,))\n"
    "    return torch.export.export_for_inference(m, (x,))  # noqa: TM101\n"
    "\f\n"
    "class Model:\n"
    "    pass\n";

std::string with_endings(std::string text, const std::string& ending) {
  std::string out;
  for (char c : text) out += c == '\n' ? ending : std::string(1, c);
  return out;
}

struct Finding {
  std::string code;
  uint32_t line, column;
  bool operator==(const Finding&) const = default;
};

std::vector<Finding> findings(const Linter& linter, const std::string& text) {
  SourceFile file("t.py", text, Language::Python);
  std::vector<Finding> out;
  for (const Diagnostic& diagnostic : linter.lint(file)) {
    LineColumn at = file.location(diagnostic.range.start);
    out.push_back({diagnostic.code, at.line, at.column});
  }
  return out;
}

}  // namespace

TEST_CASE("CR-only and CRLF files report what the LF file reports, where it reports it") {
  Settings settings;
  settings.selection.extend_select = {"TM001"};
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  std::vector<Finding> expected = findings(linter, kLf);
  REQUIRE_FALSE(expected.empty());
  CHECK(std::none_of(expected.begin(), expected.end(), [](const Finding& f) { return f.code == "TM901"; }));
  CHECK(std::find(expected.begin(), expected.end(), Finding{"TM201", 5, 14}) != expected.end());
  CHECK(findings(linter, with_endings(kLf, "\r")) == expected);
  CHECK(findings(linter, with_endings(kLf, "\r\n")) == expected);
}

TEST_CASE("fixing a CR-only file keeps its line endings") {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  std::string cr = with_endings("import torch\n\ndef f(m, x):\n    return torch.export.export(m, (x,))\n", "\r");
  FixOutcome outcome = fix_file(linter, SourceFile("t.py", cr, Language::Python));
  REQUIRE_FALSE(outcome.applied.empty());
  CHECK(outcome.problems.empty());
  CHECK(outcome.text == with_endings("import torch\n\ndef f(m, x):\n    return torch.export.export(m, (x,), strict=True)\n", "\r"));
}

TEST_CASE("--add-noqa puts the directive at the end of the right line of a CR-only file") {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  std::string cr = with_endings("import torch\ntorch.export.export(m, (x,))\nx = 1\n", "\r");
  SourceFile file("t.py", cr, Language::Python);
  NoqaResult result = add_noqa(file, linter.lint(file), Catalog::builtin());
  CHECK(result.added == 1);
  CHECK(result.text == with_endings("import torch\ntorch.export.export(m, (x,))  # noqa: TM201\nx = 1\n", "\r"));
}
