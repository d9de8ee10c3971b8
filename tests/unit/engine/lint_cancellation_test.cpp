// SPDX-License-Identifier: MIT
// An editor stops a stale lint: the linter polls its StopRequested and throws LintCancelled.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

std::string many_findings(int count) {
  std::string text = "import torch\n";
  for (int i = 0; i < count; ++i) text += "torch.onnx.export(m, x, \"f\")\n";
  return text;
}

}  // namespace

TEST_CASE("a stop that never fires changes nothing") {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  SourceFile file("a.py", many_findings(50), Language::Python);
  python::SyntaxTree tree = python::SyntaxTree::parse(file.text());
  int polls = 0;
  std::vector<Diagnostic> stoppable = linter.lint(file, tree, [&] {
    ++polls;
    return false;
  });
  std::vector<Diagnostic> plain = linter.lint(file);
  REQUIRE(stoppable.size() == plain.size());
  CHECK(stoppable.size() >= 50);  // every line is a finding
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(stoppable[i].code == plain[i].code);
    CHECK(stoppable[i].range.start == plain[i].range.start);
  }
  CHECK(polls > 0);
}

TEST_CASE("a stop requested during the walk throws instead of returning part of the findings") {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  SourceFile file("a.py", many_findings(5000), Language::Python);
  python::SyntaxTree tree = python::SyntaxTree::parse(file.text());
  int polls = 0;
  // Say yes only after the walk started, so the poll inside the traversal is what stops it.
  CHECK_THROWS_AS(linter.lint(file, tree, [&] { return ++polls > 2; }), LintCancelled);
  CHECK(polls == 3);
}
