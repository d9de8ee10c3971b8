// SPDX-License-Identifier: MIT
// GitHub workflow commands: one annotation line per finding, with GitHub's escaping.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("github: one workflow command per finding, level by severity, path relative to the root") {
  LintedReport linted;
  std::vector<std::string> lines = lines_of(render(output::write_github, linted.report));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "::error title=torchmigrate (TM101),file=pkg/a b.py,line=3,col=6,endLine=3,endColumn=48::TM101 "
        "`torch.export.export_for_inference` was removed in torch 2.8; use "
        "`torch.export.export(..., strict=True).run_decompositions()` "
        "(`torch.export.export_for_training` in place of `export` while torch 2.7 is supported)");
  CHECK(lines[1] ==
        "::error title=torchmigrate (TM102),file=pkg/m.py,line=2,col=1,endLine=2,endColumn=66::TM102 "
        "`torch.fx.experimental.symbolic_shapes.definitely_true` was removed in torch 2.8; use `guard_or_false(...)`");
  CHECK(lines[2] ==
        "::warning title=torchmigrate (TM201),file=pkg/m.py,line=4,col=6,endLine=4,endColumn=34::TM201 "
        "`torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); pass `strict=` explicitly");
  CHECK(lines[3].starts_with("::error title=torchmigrate (TM102),file=pkg/m.py,line=5,col=4,endLine=5,endColumn=27::"));
}

TEST_CASE("github: absolute paths below the root become relative") {
  LintedReport linted({{"/repo/pkg/m.py", kModule}});
  CHECK_THAT(render(output::write_github, linted.report), Catch::Contains(",file=pkg/m.py,line=4,"));
  LintedReport outside({{"/elsewhere/m.py", kModule}});
  CHECK_THAT(render(output::write_github, outside.report), Catch::Contains(",file=/elsewhere/m.py,line=4,"));
}

TEST_CASE("github: % CR LF are escaped in the message, and also : , in properties; info is a notice") {
  Diagnostic diagnostic{"TM201", "100% sure\r\nnext: a, b", {0, 3}, Severity::Info, {}};
  HandMadeReport hand("dir:x/odd,name%.py", "abc\n", diagnostic);
  CHECK(render(output::write_github, hand.report) ==
        "::notice title=torchmigrate (TM201),file=dir%3Ax/odd%2Cname%25.py,line=1,col=1,endLine=1,endColumn=4::"
        "TM201 100%25 sure%0D%0Anext: a, b\n");
}

TEST_CASE("github: nothing found prints nothing") {
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(render(output::write_github, clean.report).empty());
}
