// SPDX-License-Identifier: MIT
// The pieces of the HTML migration report (src/output/html/): escaping, inline SVG charts, the
// findings table and the rule explanations. `write_html` (report.hpp) assembles them into one
// self-contained page: no network access, no external assets, its CSS and script inline.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/output/headline.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output::html {

// Text for an HTML element or a quoted attribute value: `& < > " '` as character references.
std::string escape(std::string_view text);
// Text from a file or a message: control characters made visible first (escape_control), so a
// newline or bidirectional override in a file name shows as `\n` / `\u202e`, then escaped.
std::string escape_text(std::string_view text, bool keep_tabs = false);
// A JSON document that is safe inside <script>: `<`, `>` and `&` written as \u escapes.
std::string script_json(const std::string& json);
// A path escaped with a <wbr> after each `/`, so a narrow cell breaks it between directories.
std::string breakable_path(std::string_view path);
// One line of text (a message, a summary): escaped, on one line, `code spans` as <code>.
std::string code_spans(std::string_view text);
// Catalog prose: escaped, `code spans` as <code>, blank lines as paragraph breaks.
std::string prose(std::string_view markdown);

// One coloured part of a bar (a CSS class such as "breaks" or "manual").
struct ChartSegment {
  size_t value = 0;
  std::string css_class;
  std::string label;  // tooltip: "breaks on 2.8"
};

struct ChartBar {
  std::string label;
  std::string filter;  // the table filter a click on the bar applies ("" none)
  std::vector<ChartSegment> segments;

  [[nodiscard]] size_t total() const;
};

// At most `limit` bars, largest first; the rest are summed into one "N more" bar.
std::vector<ChartBar> top_bars(std::vector<ChartBar> bars, size_t limit);
// A horizontal bar chart as an inline <svg> with the given id: a label, a bar of stacked
// segments scaled to the largest total, and the total, per row.
std::string bar_chart_svg(std::string_view id, std::string_view title, const std::vector<ChartBar>& bars);

// The charts of a report: findings per rule, per top-level directory, per project, and the
// files with the most work (split by who does it).
std::string charts_section(const Report& report);
// The directory under the findings' common directory that holds `path` ("." for files directly in it).
std::string top_directory(std::string_view path, size_t common_depth);
// How many leading directories every one of `paths` shares.
size_t common_directory_depth(const std::vector<std::string>& paths);

// The headline numbers and baseline progress.
std::string headline_section(const Report& report, const Headline& headline);
// The projects with findings and their torch ranges; those without findings on one line.
std::string projects_section(const Report& report);
// The findings table: a compact JSON document of every finding that the page's script renders,
// sorts and filters, plus the table it fills.
std::string findings_section(const Report& report);
// Each rule with findings, explained from the catalog, at anchor `rule-CODE`.
std::string rules_section(const Report& report);

// The inline stylesheet and script.
std::string_view stylesheet();
std::string_view script();

}  // namespace torchmigrate::output::html
