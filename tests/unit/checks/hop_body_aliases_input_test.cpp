// SPDX-License-Identifier: MIT
// TM106: what counts as returning or mutating an input of a higher-order op body.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;

namespace {

std::vector<Diagnostic> lint(const std::string& source) {
  engine::Settings settings;
  settings.selection.select = {"TM106"};
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile("t.py", source, Language::Python));
}

// `body` as the true branch of torch.cond.
std::vector<Diagnostic> lint_body(const std::string& body) {
  return lint("import torch\n\n" + body + "\n\ntorch.cond(p, f, g, (x,))\n");
}

}  // namespace

TEST_CASE("TM106 follows view chains back to a parameter") {
  CHECK(lint_body("def f(x):\n    return x.t().view(-1)[0]").size() == 1);
  CHECK(lint_body("def f(x):\n    return (x.mT)").size() == 1);
  CHECK(lint_body("def f(x):\n    return x.sin().view(-1)").empty());
  CHECK(lint_body("def f(x):\n    return x.reshape(-1) + 1").empty());
}

TEST_CASE("TM106 ignores returns and mutations that are not the body's own") {
  // The nested def's return and a closure variable's mutation.
  CHECK(lint_body("def f(x):\n    def inner(y):\n        return y\n    return inner(x) * 2").empty());
  CHECK(lint_body("def f(x):\n    buffer.add_(1)\n    return x + 1").empty());
  // A parameter rebound before it is returned is a new tensor.
  CHECK(lint_body("def f(x):\n    x = x + 1\n    return x").empty());
  // `__iadd__` style dunders and non-mutating methods are not in-place ops.
  CHECK(lint_body("def f(x):\n    x.__len__()\n    return x.sum()").empty());
}

TEST_CASE("TM106 reports each aliased output with its own fix") {
  std::vector<Diagnostic> found = lint_body("def f(x, y):\n    return x, y[1:], x.sum()");
  REQUIRE(found.size() == 2);
  for (const Diagnostic& diagnostic : found) {
    REQUIRE(diagnostic.fixes.size() == 1);
    CHECK(diagnostic.fixes.front().applicability == Applicability::Safe);
    CHECK(diagnostic.fixes.front().edits.front().replacement == ".clone()");
  }
  std::vector<Diagnostic> mutated = lint_body("def f(x):\n    x[0] += 1\n    return x.sum()");
  REQUIRE(mutated.size() == 1);
  CHECK(mutated.front().fixes.front().applicability == Applicability::DisplayOnly);
  CHECK(mutated.front().fixes.front().edits.empty());
}
