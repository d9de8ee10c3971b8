// SPDX-License-Identifier: MIT
// The headline model: urgency from the rule code, who does the work, and one set of numbers that
// the summary line, the Markdown report and the HTML report all show.
#include <catch2/catch.hpp>

#include "formats_fixture.hpp"
#include "torchmigrate/output/headline.hpp"

using namespace format_tests;
using output::FixKind;
using output::Urgency;

TEST_CASE("headline: urgency follows the first digit of the code") {
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM101")) == Urgency::Breaks);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM151")) == Urgency::Breaks);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM201")) == Urgency::Silent);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM302")) == Urgency::Deprecated);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM404")) == Urgency::Build);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM001")) == Urgency::Other);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM900")) == Urgency::Other);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("E902")) == Urgency::Other);
  CHECK(output::urgency_of(engine::Catalog::builtin().find("TM1")) == Urgency::Other);
  CHECK(output::urgency_label(Urgency::Breaks) == "breaks on upgrade");
  CHECK(output::urgency_id(Urgency::Silent) == "silent");
}

TEST_CASE("headline: the catalog's kinds agree with the urgency of their codes") {
  for (const engine::RuleSpec& rule : engine::Catalog::builtin().rules()) {
    INFO(rule.code);
    Urgency urgency = output::urgency_of(&rule);
    CHECK((urgency == Urgency::Build) == (rule.kind == engine::RuleKind::Build));
    if (urgency == Urgency::Breaks) {
      CHECK((rule.kind == engine::RuleKind::Removed || rule.kind == engine::RuleKind::Renamed));
    }
    if (rule.kind == engine::RuleKind::ChangedDefault) CHECK(urgency != Urgency::Breaks);
  }
}

TEST_CASE("headline: findings by urgency and by who fixes them") {
  LintedReport linted;  // TM101 (safe fix), 2 x TM102 (unsafe while 2.7 is supported), TM201 (safe keep-old)
  linted.report.files_checked = 7;
  linted.report.projects.push_back({"repo", ">= 2.7", "default", 7});
  output::Headline headline = output::compute_headline(linted.report);
  CHECK(headline.files_checked == 7);
  CHECK(headline.files_with_findings == 2);
  CHECK(headline.projects == 1);
  CHECK(headline.findings == 4);
  CHECK(headline.urgency(Urgency::Breaks) == 3);
  CHECK(headline.urgency(Urgency::Silent) == 1);
  CHECK(headline.urgency(Urgency::Deprecated) == 0);
  CHECK(headline.fix(FixKind::Safe) == 2);
  CHECK(headline.fix(FixKind::Unsafe) == 2);
  CHECK(headline.fix(FixKind::Manual) == 0);
  CHECK(headline.fixable_now == 2);
  CHECK(headline.unsafe_hidden == 2);
  CHECK(headline.by_severity == std::array<size_t, 3>{3, 1, 0});

  // Files the run never listed are still counted when they hold findings.
  linted.report.files_checked = 0;
  CHECK(output::compute_headline(linted.report).files_checked == 2);
}

TEST_CASE("headline: --unsafe-fixes changes what is fixable now, not who does the work") {
  engine::Settings unsafe;
  unsafe.unsafe_fixes = true;
  LintedReport linted({{"pkg/a b.py", kSpacedFile}, {"pkg/m.py", kModule}}, unsafe);
  output::Headline headline = output::compute_headline(linted.report);
  CHECK(headline.fixable_now == 4);
  CHECK(headline.unsafe_hidden == 0);
  CHECK(headline.fix(FixKind::Safe) == 2);
  CHECK(headline.fix(FixKind::Unsafe) == 2);
}

TEST_CASE("headline: a finding without a fix is manual") {
  HandMadeReport hand("pkg/m.py", "x = 1\n", Diagnostic{"TM107", "m", {0, 1}, Severity::Warning, {}});
  output::Headline headline = output::compute_headline(hand.report);
  CHECK(headline.fix(FixKind::Manual) == 1);
  CHECK(headline.urgency(Urgency::Breaks) == 1);
}

TEST_CASE("headline: items in order, other urgency and this run's fixes only when nonzero") {
  LintedReport linted;
  std::vector<output::HeadlineItem> items = output::headline_items(output::compute_headline(linted.report));
  std::vector<std::string> ids;
  for (const output::HeadlineItem& item : items) ids.push_back(item.id);
  CHECK(ids == std::vector<std::string>{"files", "files-with-findings", "projects", "findings", "urgency-breaks",
                                        "urgency-silent", "urgency-deprecated", "urgency-build", "fix-safe",
                                        "fix-unsafe", "fix-manual"});
  linted.report.fixed = 3;
  linted.report.files.front().diagnostics.front().code = "TM001";
  items = output::headline_items(output::compute_headline(linted.report));
  CHECK(items.back().id == "fixed");
  CHECK(items.back().value == 3);
  CHECK(std::any_of(items.begin(), items.end(),
                    [](const output::HeadlineItem& item) { return item.id == "urgency-other" && item.value == 1; }));
}

TEST_CASE("headline: the summary, Markdown and HTML show the same numbers") {
  LintedReport linted;
  linted.report.files_checked = 5;
  linted.report.projects.push_back({"repo/pkg", "2.7-2.8", "requirements.txt:1", 5});
  output::Headline headline = output::compute_headline(linted.report);

  std::string summary = render(output::write_summary, linted.report);
  CHECK(summary.find("[*] 2 fixable with the `--fix` option (2 hidden fixes") != std::string::npos);

  std::string markdown = render(output::write_markdown, linted.report);
  std::string html = render(output::write_html, linted.report);
  for (const output::HeadlineItem& item : output::headline_items(headline)) {
    INFO(item.id);
    CHECK(markdown.find("| " + item.label + " | " + std::to_string(item.value) + " |\n") != std::string::npos);
    CHECK(html.find("data-metric=\"" + item.id + "\">" + std::to_string(item.value) + "</span>") != std::string::npos);
  }
  CHECK(markdown.find("| `repo/pkg` | 2.7-2.8 | requirements.txt:1 | 5 |") != std::string::npos);
  CHECK(html.find("<td class=\"torch\">2.7-2.8</td><td class=\"path\">requirements.txt:1</td>") != std::string::npos);
}
