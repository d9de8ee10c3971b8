// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

FixOutcome fix(const std::string& text, Settings settings = {}) {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), std::move(settings));
  return fix_file(linter, SourceFile("t.py", text, Language::Python));
}

}  // namespace

TEST_CASE("insertions at the same point are applied over several passes, in code order") {
  FixOutcome outcome = fix("import torch\ntorch.onnx.export(m, (x,), 'm.onnx')\n");
  CHECK(outcome.text == "import torch\ntorch.onnx.export(m, (x,), 'm.onnx', opset_version=17, dynamo=False)\n");
  CHECK(outcome.applied.size() == 2);
  CHECK(outcome.remaining.empty());
}

TEST_CASE("a shared import rewrite is applied once for all the findings that need it") {
  FixOutcome outcome = fix(
      "from torch.export import export_for_inference\n"
      "a = export_for_inference(m, (x,))\n"
      "b = export_for_inference(n, (y,), strict=False)\n");
  CHECK(outcome.text ==
        "from torch.export import export_for_training\n"
        "a = export_for_training(m, (x,), strict=True).run_decompositions()\n"
        "b = export_for_training(n, (y,), strict=False).run_decompositions()\n");
}

TEST_CASE("policies pick keep-old or adopt-new; adopt-new needs --unsafe-fixes") {
  std::string text = "import torch\ntorch.export.export(m, (x,))\n";
  Settings adopt;
  adopt.policies["TM201"] = FixPolicy::AdoptNew;
  CHECK(fix(text, adopt).text == text);
  adopt.unsafe_fixes = true;
  CHECK(fix(text, adopt).text == "import torch\ntorch.export.export(m, (x,), strict=False)\n");
  CHECK(fix(text).text == "import torch\ntorch.export.export(m, (x,), strict=True)\n");
}

TEST_CASE("fixes that need torch 2.8 wait for --unsafe-fixes or --min-torch 2.8") {
  std::string text = "from torch.fx.experimental.symbolic_shapes import definitely_true\nok = definitely_true(x)\n";
  CHECK(fix(text).text == text);
  Settings newer;
  newer.min_torch = TorchVersion{2, 8};
  CHECK(fix(text, newer).text ==
        "from torch.fx.experimental.symbolic_shapes import guard_or_false\nok = guard_or_false(x)\n");
}

TEST_CASE("a file with a syntax error elsewhere is still fixed, and the error is still reported") {
  FixOutcome outcome = fix("import torch\ndef broken(:\n    pass\ntorch.export.export(m, (x,))\n");
  CHECK(outcome.text.find("strict=True") != std::string::npos);
  REQUIRE_FALSE(outcome.remaining.empty());
  CHECK(outcome.remaining.front().code == kParseErrorCode);
  CHECK_FALSE(outcome.rollback.has_value());
}
