// SPDX-License-Identifier: MIT
// Findings that belong together: an import rewrite and its uses carry the same fix, and a name
// with several possible bindings is reported for all of them or marked uncertain.
#include <catch2/catch.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

std::vector<Diagnostic> lint(const std::string& code, const std::string& text) {
  Settings settings;
  settings.selection.select = {code};
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile("t.py", text, Language::Python));
}

}  // namespace

TEST_CASE("a moved PT2E module import carries its fix on every use") {
  auto diagnostics = lint("TM301",
                          "from torch.ao.quantization import quantize_pt2e as qp\n"
                          "m = qp.prepare_pt2e(m, q)\n"
                          "m = qp.convert_pt2e(m)\n");
  REQUIRE(diagnostics.size() == 3);
  for (const Diagnostic& diagnostic : diagnostics) {
    REQUIRE(diagnostic.fixes.size() == 1);
    CHECK(diagnostic.fixes[0].edits == diagnostics[0].fixes[0].edits);
  }
}

TEST_CASE("a PT2E module with a use torchao lacks is fixed nowhere") {
  auto diagnostics = lint("TM301",
                          "from torch.ao.quantization import quantize_pt2e as qp\n"
                          "m = qp.prepare_pt2e(m, q)\n"
                          "qp._convert_to_reference_decomposed_fx(m)\n");
  REQUIRE(diagnostics.size() == 3);
  for (const Diagnostic& diagnostic : diagnostics) CHECK(diagnostic.fixes.empty());
}

TEST_CASE("uses of a from-imported quantizer module are reported like its import") {
  auto diagnostics = lint("TM301",
                          "from torch.ao.quantization.quantizer import xnnpack_quantizer\n"
                          "q = xnnpack_quantizer.XNNPACKQuantizer()\n");
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[1].message.find("torch.ao.quantization.quantizer.xnnpack_quantizer.XNNPACKQuantizer") !=
        std::string::npos);
  CHECK(diagnostics[1].message.find("torchao.quantization.pt2e.quantizer") != std::string::npos);
}

TEST_CASE("a name bound to two export functions is reported with both and fixed") {
  auto diagnostics = lint("TM201",
                          "import torch\n"
                          "if c:\n    f = torch.export.export_for_training\nelse:\n    f = torch.export.export\n"
                          "f(m, a)\n");
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].message.find("`torch.export.export` or `torch.export.export_for_training`") !=
        std::string::npos);
  CHECK(diagnostics[0].fixes.size() == 2);
}

TEST_CASE("a name that may be bound to something else is uncertain and unfixed") {
  auto diagnostics = lint("TM201",
                          "import torch\n"
                          "f = torch.export.export\nif c:\n    f = trace\n"
                          "f(m, a)\n");
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].message.find("uncertain") != std::string::npos);
  CHECK(diagnostics[0].fixes.empty());
}
