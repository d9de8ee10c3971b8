// SPDX-License-Identifier: MIT
// TM209: which registrations make a kernel, which schemas declare the alias, and the shared
// helpers that find a function's returns and decorators.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/checks/returned_alias.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;

namespace {

std::vector<Diagnostic> lint(const std::string& source) {
  engine::Settings settings;
  settings.selection.select = {"TM209"};
  settings.target = TorchVersion{2, 9};
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile("t.py", "import torch\n" + source, Language::Python));
}

// A kernel returning its input, registered for `op` after `define` (if any).
std::vector<Diagnostic> lint_defined(const std::string& define, const std::string& op) {
  return lint(define + "\n@torch.library.impl(" + op + ", \"cpu\")\ndef k(x):\n    return x\n");
}

}  // namespace

TEST_CASE("TM209 leaves ops whose schema declares an aliased return") {
  CHECK(lint_defined("torch.library.define(\"ns::f\", \"(Tensor(a) x) -> Tensor(a)\")", "\"ns::f\"").empty());
  CHECK(lint_defined("torch.library.define(\"ns::f\", \"(Tensor(a!) x) -> Tensor(a!)\")", "\"ns::f.default\"").empty());
  CHECK(lint_defined("torch.library.define(\"ns::f\", \"(Tensor(a) x) -> Tensor(a)\")", "torch.ops.ns.f.default")
            .empty());
  // An alias on an input only, or a tuple of plain tensors, declares nothing about the output.
  CHECK(lint_defined("torch.library.define(\"ns::f\", \"(Tensor(a) x) -> Tensor\")", "\"ns::f\"").size() == 1);
  CHECK(lint_defined("torch.library.define(\"ns::f\", \"(Tensor x) -> (Tensor, Tensor)\")", "\"ns::f\"").size() == 1);
  // Another op's schema does not count.
  CHECK(lint_defined("torch.library.define(\"ns::g\", \"(Tensor(a) x) -> Tensor(a)\")", "\"ns::f\"").size() == 1);
}

TEST_CASE("TM209 follows registrations made by hand and through objects") {
  CHECK(lint("def k(x):\n    return x\n\ntorch.library.impl(\"ns::f\", \"cpu\")(k)\n").size() == 1);
  CHECK(lint("def k(x):\n    return x\n\nop = torch.library.custom_op(\"ns::f\", mutates_args=())(k)\n").size() == 1);
  CHECK(lint("lib = torch.library.Library(\"ns\", \"IMPL\")\nlib.impl(\"f\", lambda x: x[0], \"CPU\")\n").size() == 1);
  // The project's own object with an `impl` method, and a function nobody registers.
  CHECK(lint("lib = make_library()\nlib.impl(\"f\", lambda x: x, \"CPU\")\n").empty());
  CHECK(lint("def k(x):\n    return x\n").empty());
}

TEST_CASE("TM209 gives advice instead of a copy when the kernel mutates what it returns") {
  std::vector<Diagnostic> found = lint(
      "@torch.library.custom_op(\"ns::f\", mutates_args={\"x\"})\ndef f(x: torch.Tensor) -> torch.Tensor:\n"
      "    return x\n");
  REQUIRE(found.size() == 1);
  REQUIRE(found.front().fixes.size() == 1);
  CHECK(found.front().fixes.front().applicability == Applicability::DisplayOnly);
  CHECK(found.front().fixes.front().edits.empty());
  // Another parameter's mutation leaves the fix as it is.
  found = lint("@torch.library.impl(\"ns::f\", \"cpu\")\ndef f(x, y):\n    y.zero_()\n    return x\n");
  REQUIRE(found.size() == 1);
  CHECK(found.front().fixes.front().applicability == Applicability::Safe);
}

TEST_CASE("returned_values takes a def's own returns, not those of nested functions") {
  python::SyntaxTree tree = python::SyntaxTree::parse(
      "def f(x):\n    def g(y):\n        return y\n    if x:\n        return x\n    return\n    return (x, 1)\n");
  std::vector<python::Node> values = checks::returned_values(tree.root().named_child(0));
  REQUIRE(values.size() == 2);
  CHECK(values[0].text() == "x");
  CHECK(values[1].text() == "(x, 1)");
}

TEST_CASE("decorator_expressions lists what follows each @") {
  python::SyntaxTree tree = python::SyntaxTree::parse("@a.b\n@c(1)  # why\ndef f():\n    pass\n");
  std::vector<python::Node> expressions = checks::decorator_expressions(tree.root().named_child(0));
  REQUIRE(expressions.size() == 2);
  CHECK(expressions[0].text() == "a.b");
  CHECK(expressions[1].text() == "c(1)");
}
