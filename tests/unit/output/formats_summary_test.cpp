// SPDX-License-Identifier: MIT
// The closing lines of the text formats: Ruff's "Found N errors." only when every finding is an
// error; warnings and infos counted as such otherwise.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

namespace {

std::string first_line(const output::Report& report) {
  std::ostringstream out;
  output::write_summary(report, out);
  return lines_of(out.str()).front();
}

Diagnostic finding(Severity severity) {
  Diagnostic diagnostic;
  diagnostic.code = "TM201";
  diagnostic.severity = severity;
  // Appended, not assigned from a literal: GCC 12 warns falsely (-Wrestrict, its bug 105329)
  // on the inlined assignment here.
  diagnostic.message.append(1, 'm');
  diagnostic.range = {0, 1};
  return diagnostic;
}

}  // namespace

TEST_CASE("the summary keeps Ruff's wording when every finding is an error") {
  LintedReport linted({{"pkg/a.py", kSpacedFile}});
  CHECK(first_line(linted.report) == "Found 1 error.");
}

TEST_CASE("the summary counts errors, warnings and infos separately") {
  LintedReport linted;  // TM101, 2 x TM102 (errors), TM201 (warning)
  CHECK(first_line(linted.report) == "Found 4 findings (3 errors, 1 warning).");
  HandMadeReport hand("pkg/m.py", "x = 1\n", finding(Severity::Info));
  CHECK(first_line(hand.report) == "Found 1 finding (1 info).");
  hand.report.files.front().diagnostics.push_back(finding(Severity::Info));
  hand.report.files.front().diagnostics.push_back(finding(Severity::Warning));
  CHECK(first_line(hand.report) == "Found 3 findings (1 warning, 2 info).");
}

TEST_CASE("a fix run counts findings, fixed and remaining") {
  LintedReport linted;
  linted.report.fix_mode = true;
  linted.report.fixed = 2;
  CHECK(first_line(linted.report) == "Found 6 findings (2 fixed, 4 remaining: 3 errors, 1 warning).");
  linted.report.files.clear();
  CHECK(first_line(linted.report) == "Found 2 findings (2 fixed, 0 remaining).");
  linted.report.fixed = 0;
  CHECK(first_line(linted.report) == "All checks passed!");
}
