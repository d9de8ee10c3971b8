// SPDX-License-Identifier: MIT
// pylint: `path:line: [CODE] message`, one line per finding and nothing else, as Ruff prints it.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("pylint: one `path:line: [CODE] message` line per finding, no summary") {
  LintedReport linted;
  std::vector<std::string> lines = lines_of(render(output::write_pylint, linted.report));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "pkg/a b.py:3: [TM101] `torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)");
  const std::vector<Diagnostic>& module = linted.report.files[1].diagnostics;
  CHECK(lines[1] == "pkg/m.py:2: [TM102] " + module[0].message);
  CHECK(lines[2] ==
        "pkg/m.py:4: [TM201] `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
        "pass `strict=` explicitly");
  CHECK(lines[3] == "pkg/m.py:5: [TM102] " + module[2].message);
}

TEST_CASE("pylint: nothing found prints nothing; control characters are escaped") {
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(render(output::write_pylint, clean.report).empty());
  HandMadeReport hand("pkg/a\nb.py", "x = 1\ny = 2\n", Diagnostic{"TM201", "bad\nnews", {6, 7}, Severity::Warning, {}});
  CHECK(render(output::write_pylint, hand.report) == "pkg/a\\nb.py:2: [TM201] bad\\nnews\n");
}
