// SPDX-License-Identifier: MIT
// The Markdown report: totals, a table per rule, findings grouped by file, folded when long.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("markdown: totals, the rule table and the findings per file") {
  LintedReport linted({{"pkg/m.py", kModule}});
  std::string text = render(output::write_markdown, linted.report);
  CHECK(text.starts_with("## torchmigrate\n\nFound 3 findings (2 errors, 1 warning).\n"));
  CHECK(text.find("| Rule | Name | Findings | Fixable |\n| --- | --- | ---: | ---: |\n"
                  "| [TM102](https://github.com/pytorch/pytorch/pull/152463) | definitely-true-false-removed | 2 | 0 |\n"
                  "| [TM201](https://github.com/pytorch/pytorch/pull/148790) | export-strict-default-changed | 1 | 1 |\n") !=
        std::string::npos);
  CHECK(text.find("\n### `pkg/m.py`\n\n- 2:1 [TM102](") != std::string::npos);
  CHECK(text.find("- 4:6 [TM201](https://github.com/pytorch/pytorch/pull/148790) [\\*] `torch.export.export`") !=
        std::string::npos);
  CHECK(text.find("<details>") == std::string::npos);
}

TEST_CASE("markdown: nothing found is one line; a long report folds each file") {
  LintedReport clean({{"pkg/ok.py", "x = 1\n"}});
  CHECK(render(output::write_markdown, clean.report) == "## torchmigrate\n\nAll checks passed!\n");

  HandMadeReport hand("pkg/<odd>.py", "x = 1\n", Diagnostic{"TM201", "a | b", {0, 1}, Severity::Warning, {}});
  for (int i = 0; i < 20; ++i) hand.report.files.front().diagnostics.push_back(hand.report.files.front().diagnostics.front());
  std::string text = render(output::write_markdown, hand.report);
  CHECK(text.find("<details><summary><code>pkg/&lt;odd&gt;.py</code> (21)</summary>\n\n- 1:1 ") != std::string::npos);
  CHECK(text.find("a | b\n") != std::string::npos);  // list items keep `|`; only table cells escape it
  CHECK(text.ends_with("\n</details>\n"));
}
