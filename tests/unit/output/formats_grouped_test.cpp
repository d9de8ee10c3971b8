// SPDX-License-Identifier: MIT
// grouped: Ruff's layout, the findings under their file's path with padded positions.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("grouped: each file's path, its findings indented, a blank line, then the summary") {
  LintedReport linted;
  const std::vector<Diagnostic>& module = linted.report.files[1].diagnostics;
  std::string summary = render(output::write_summary, linted.report);
  CHECK(render(output::write_grouped, linted.report) ==
        "pkg/a b.py:\n"
        "  3:6 TM101 [*] `torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)\n"
        "\n"
        "pkg/m.py:\n"
        "  2:1 TM102 " +
            module[0].message +
            "\n"
            "  4:6 TM201 [*] `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
            "pass `strict=` explicitly\n"
            "  5:4 TM102 " +
            module[2].message +
            "\n"
            "\n" +
            summary);
  CHECK(summary ==
        "Found 4 findings (3 errors, 1 warning).\n[*] 2 fixable with the `--fix` option (2 hidden fixes can be "
        "enabled with the `--unsafe-fixes` option).\n");
}

TEST_CASE("grouped: lines right-aligned and columns padded to the widest in the file") {
  std::string text = "import torch\nfrom torch.fx.experimental.symbolic_shapes import definitely_true\n" +
                     std::string(9, '\n') + "x = 1; ep = torch.export.export(m, (x,))\n";
  LintedReport linted({{"m.py", text}});
  const std::vector<Diagnostic>& found = linted.report.files.at(0).diagnostics;
  REQUIRE(found.size() == 2);
  std::vector<std::string> lines = lines_of(render(output::write_grouped, linted.report));
  CHECK(lines[0] == "m.py:");
  CHECK(lines[1] == "   2:1  TM102 " + found[0].message);
  CHECK(lines[2] == "  12:13 TM201 [*] " + found[1].message);
  CHECK(lines[3].empty());
}

TEST_CASE("grouped: nothing found is the summary alone") {
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(render(output::write_grouped, clean.report) == "All checks passed!\n");
}
