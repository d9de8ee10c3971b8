// SPDX-License-Identifier: MIT
// Format names, dispatch by name, and the path and name helpers the CI formats share.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "formats_fixture.hpp"

using namespace format_tests;

TEST_CASE("every format name parses and dispatches to its writer") {
  CHECK(output::format_names() == std::vector<std::string>{"concise", "full", "grouped", "pylint", "json", "json-lines",
                                                           "rdjson", "sarif", "github", "gitlab", "junit", "markdown",
                                                           "html"});
  CHECK(output::parse_format("grouped") == output::Format::Grouped);
  CHECK(output::parse_format("pylint") == output::Format::Pylint);
  CHECK(output::parse_format("rdjson") == output::Format::Rdjson);
  CHECK(output::parse_format("json-lines") == output::Format::JsonLines);
  CHECK(output::parse_format("sarif") == output::Format::Sarif);
  CHECK(output::parse_format("github") == output::Format::Github);
  CHECK(output::parse_format("gitlab") == output::Format::Gitlab);
  CHECK(output::parse_format("junit") == output::Format::Junit);
  CHECK(output::parse_format("markdown") == output::Format::Markdown);
  CHECK(output::parse_format("html") == output::Format::Html);
  CHECK_THROWS_WITH(output::parse_format("xml"),
                    "unknown output format `xml`; expected one of: concise, full, grouped, pylint, json, json-lines, "
                    "rdjson, sarif, github, gitlab, junit, markdown, html");

  LintedReport linted;
  std::ostringstream out;
  output::write(output::Format::Junit, linted.report, out);
  CHECK(out.str() == render(output::write_junit, linted.report));
  std::ostringstream sarif;
  output::write(output::Format::Sarif, linted.report, sarif);
  CHECK(sarif.str() == render(output::write_sarif, linted.report));
  std::ostringstream markdown;
  output::write(output::Format::Markdown, linted.report, markdown);
  CHECK(markdown.str() == render(output::write_markdown, linted.report));
  using Writer = void (*)(const output::Report&, std::ostream&);
  for (auto [format, writer] : {std::pair<output::Format, Writer>{output::Format::Grouped, output::write_grouped},
                                {output::Format::Pylint, output::write_pylint},
                                {output::Format::Rdjson, output::write_rdjson}}) {
    std::ostringstream written;
    output::write(format, linted.report, written);
    CHECK(written.str() == render(writer, linted.report));
  }
  std::ostringstream html;
  output::write(output::Format::Html, linted.report, html);
  CHECK(html.str() == render(output::write_html, linted.report));
}

TEST_CASE("report paths are relative to the root when below it") {
  output::Report report;
  report.root = "/repo";
  auto path = [&](const std::string& name) { return output::report_path(report, SourceFile(name, "")); };
  CHECK(path("pkg/m.py") == "pkg/m.py");
  CHECK(path("./pkg/./m.py") == "pkg/m.py");
  CHECK(path("/repo/pkg/m.py") == "pkg/m.py");
  CHECK(path("/repository/m.py") == "/repository/m.py");
  CHECK(path("/elsewhere/m.py") == "/elsewhere/m.py");
  report.root = "/repo/";
  CHECK(path("/repo/m.py") == "m.py");
}

TEST_CASE("rule names come from the catalog, internal codes have their own") {
  output::Report report;
  report.catalog = &engine::Catalog::builtin();
  CHECK(output::rule_name(report, "TM201") == "export-strict-default-changed");
  CHECK(output::rule_name(report, kIoErrorCode) == "io-error");
  CHECK(output::rule_name(report, kParseErrorCode) == "parse-error");
}
