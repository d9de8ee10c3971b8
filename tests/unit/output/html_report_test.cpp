// SPDX-License-Identifier: MIT
// The HTML report: escaping of everything that comes from files and messages, the inline SVG
// charts, and the page as a whole (no external assets, the table's data readable back).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"
#include "torchmigrate/output/html.hpp"

using namespace format_tests;
namespace html = torchmigrate::output::html;

namespace {

size_t count(const std::string& text, const std::string& needle) {
  size_t found = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++found;
  return found;
}

// The JSON document the page's script reads.
nlohmann::json table_data(const std::string& page) {
  std::string open = "<script type=\"application/json\" id=\"findings-data\">";
  size_t start = page.find(open);
  REQUIRE(start != std::string::npos);
  start += open.size();
  return nlohmann::json::parse(page.substr(start, page.find("</script>", start) - start));
}

html::ChartBar bar(std::string label, size_t breaks, size_t build) {
  return {std::move(label), "", {{breaks, "breaks", "breaks on upgrade"}, {build, "build", "build"}}};
}

}  // namespace

TEST_CASE("html: markup characters become references; control characters become visible") {
  CHECK(html::escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  CHECK(html::escape("plain text") == "plain text");
  CHECK(html::escape_text("a\nb<\u202e") == "a\\nb&lt;\\u202e");
  CHECK(html::escape_text("\tx", true) == "\tx");
}

TEST_CASE("html: paths break after slashes; code spans become <code>") {
  CHECK(html::breakable_path("pkg/sub/a<b>.py") == "pkg/<wbr>sub/<wbr>a&lt;b&gt;.py");
  CHECK(html::breakable_path("dir/") == "dir/");
  CHECK(html::code_spans("`torch.load` now <b>") == "<code>torch.load</code> now &lt;b&gt;");
  CHECK(html::code_spans("pass `x` or `y") == "pass <code>x</code> or `y");
}

TEST_CASE("html: JSON inside a script cannot close it, and still parses to the same value") {
  nlohmann::json value = {{"name", "</script><script>alert(1)</script> & <!--"}};
  std::string safe = html::script_json(value.dump());
  CHECK(safe.find('<') == std::string::npos);
  CHECK(safe.find('>') == std::string::npos);
  CHECK(safe.find('&') == std::string::npos);
  CHECK(nlohmann::json::parse(safe) == value);
}

TEST_CASE("html: catalog prose keeps code spans and paragraphs, escapes the rest") {
  CHECK(html::prose("Use `a<b` here,\nnot <i>.\n\nNext") == "<p>Use <code>a&lt;b</code> here, not &lt;i&gt;.</p><p>Next</p>");
  CHECK(html::prose("open `span") == "<p>open <code>span</code></p>");
}

TEST_CASE("html: bars scale to the largest total, segments stack, labels are escaped") {
  std::string svg = html::bar_chart_svg("chart-x", "Title \"q\"", {bar("<big>", 3, 1), bar("small", 1, 0)});
  CHECK(svg.starts_with("<svg id=\"chart-x\" class=\"chart\""));
  CHECK(svg.find("aria-label=\"Title &quot;q&quot;\"") != std::string::npos);
  CHECK(count(svg, "<rect ") == 3);  // the zero segment is left out
  CHECK(svg.find("class=\"bar breaks\" x=\"260.0\" y=\"10\" width=\"285.0\"") != std::string::npos);
  CHECK(svg.find("class=\"bar build\" x=\"545.0\" y=\"10\" width=\"95.0\"") != std::string::npos);
  CHECK(svg.find("class=\"bar breaks\" x=\"260.0\" y=\"32\" width=\"95.0\"") != std::string::npos);
  CHECK(svg.find("&lt;big&gt;") != std::string::npos);
  CHECK(svg.find("<big>") == std::string::npos);
  CHECK(html::bar_chart_svg("e", "Empty", {}).find("no findings") != std::string::npos);
}

TEST_CASE("html: a finding among thousands still gets a visible bar") {
  std::string svg = html::bar_chart_svg("c", "t", {bar("many", 100000, 0), bar("one", 1, 0)});
  CHECK(svg.find("y=\"32\" width=\"1.0\"") != std::string::npos);
}

TEST_CASE("html: the largest bars are kept, the rest summed into one") {
  std::vector<html::ChartBar> bars;
  for (size_t i = 1; i <= 20; ++i) {
    std::string label = std::to_string(i);
    bars.push_back(bar(label.insert(0, 1, 'b'), i, 1));
  }
  std::vector<html::ChartBar> top = html::top_bars(bars, 15);
  REQUIRE(top.size() == 15);
  CHECK(top.front().label == "b20");
  CHECK(top[13].label == "b7");
  CHECK(top.back().label == "6 more");
  CHECK(top.back().total() == (1 + 2 + 3 + 4 + 5 + 6) + 6);
}

TEST_CASE("html: top-level directories below what every path shares") {
  std::vector<std::string> paths{"repo/src/a/x.py", "repo/src/b/y.py", "repo/src/z.py"};
  size_t depth = html::common_directory_depth(paths);
  CHECK(depth == 2);
  CHECK(html::top_directory(paths[0], depth) == "repo/src/a/");
  CHECK(html::top_directory(paths[2], depth) == ".");
  CHECK(html::common_directory_depth({"./a/b.py", "a/c/d.py"}) == 1);
  CHECK(html::common_directory_depth({}) == 0);
}

TEST_CASE("html: a hostile file name and message stay text") {
  std::string path = "pkg/<script>alert(1)</script>\n\"'.py";
  HandMadeReport hand(path, "x = 1  # </script>\n",
                      Diagnostic{"TM201", "</script><img src=x onerror=alert(1)>", {0, 1}, Severity::Warning, {}});
  std::string page = render(output::write_html, hand.report);
  CHECK(count(page, "<script") == 2);  // the table's data and the page's script
  CHECK(count(page, "</script>") == 2);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("alert(1)</script>") == std::string::npos);
  nlohmann::json data = table_data(page);
  std::vector<std::string> strings = data["strings"];
  CHECK(std::find(strings.begin(), strings.end(), "pkg/<script>alert(1)</script>\\n\"'.py") != strings.end());
  CHECK(std::find(strings.begin(), strings.end(), "</script><img src=x onerror=alert(1)>") != strings.end());
  CHECK(std::find(strings.begin(), strings.end(), "x = 1  # </script>") != strings.end());
  // The chart labels the file too, escaped.
  CHECK(page.find("pkg/&lt;script&gt;alert(1)&lt;/script&gt;\\n&quot;&#39;.py") != std::string::npos);
}

TEST_CASE("html: a self-contained page with every finding in its table") {
  LintedReport linted;
  std::string page = render(output::write_html, linted.report);
  CHECK(page.starts_with("<!DOCTYPE html>"));
  CHECK(page.find("default-src 'none'") != std::string::npos);
  CHECK(page.find(" src=") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
  for (const char* chart : {"chart-releases", "chart-rules", "chart-directories", "chart-projects", "chart-work"}) {
    CHECK(page.find(std::string("<svg id=\"") + chart + "\"") != std::string::npos);
  }
  nlohmann::json data = table_data(page);
  REQUIRE(data["rows"].size() == 4);
  std::vector<std::string> codes;
  for (const nlohmann::json& row : data["rows"]) codes.push_back(data["rules"][row[0].get<size_t>()][0]);
  CHECK(codes == std::vector<std::string>{"TM101", "TM102", "TM201", "TM102"});
  // Each rule with findings is explained at the anchor its table link names.
  for (const char* code : {"TM101", "TM102", "TM201"}) {
    CHECK(page.find(std::string("<article class=\"rule\" id=\"rule-") + code + "\"") != std::string::npos);
  }
  CHECK(page.find("id=\"rule-TM103\"") == std::string::npos);
}

TEST_CASE("html: baseline progress and the new findings") {
  LintedReport linted;
  output::BaselineProgress progress;
  progress.path = "baseline.json";
  progress.recorded = 5;
  progress.still_open = 1;
  progress.new_since = 1;
  progress.fixed = {{"TM201", "pkg/old.py", "gone", 4}};
  linted.report.progress = &progress;
  linted.report.files[1].new_since = {false, true, false};
  std::string page = render(output::write_html, linted.report);
  CHECK(page.find("data-metric=\"baseline-fixed\">4<") != std::string::npos);
  CHECK(page.find("data-metric=\"baseline-new\">1<") != std::string::npos);
  CHECK(page.find("data-metric=\"baseline-open\">1<") != std::string::npos);
  CHECK(page.find("<code>TM201</code> pkg/<wbr>old.py gone (\u00d74)") != std::string::npos);
  std::vector<int> marks;
  nlohmann::json data = table_data(page);
  for (const nlohmann::json& row : data["rows"]) marks.push_back(row[7]);
  CHECK(marks == std::vector<int>{-1, 0, 1, 0});
}

TEST_CASE("html: a finding in a notebook shows its cell position and the cell's line") {
  std::string json =
      "{\"cells\": [{\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# t\"]},\n"
      " {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"execution_count\": null,\n"
      "  \"source\": [\"import torch\\r\\n\", \"  ep = torch.export.export_for_inference(m, (x,))\"]}],\n"
      " \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n";
  auto start = static_cast<uint32_t>(json.find("torch.export.export_for_inference"));
  HandMadeReport hand("nb.ipynb", "", Diagnostic{"TM101", "m", {start, start + 5}, Severity::Error, {}});
  hand.report.files.front().file = std::make_shared<SourceFile>("nb.ipynb", json, Language::Notebook);
  nlohmann::json data = table_data(render(output::write_html, hand.report));
  const nlohmann::json& row = data["rows"][0];
  CHECK(row[3] == "cell 2:2:8");
  CHECK(data["strings"][row[6].get<size_t>()] == "ep = torch.export.export_for_inference(m, (x,))");
}
