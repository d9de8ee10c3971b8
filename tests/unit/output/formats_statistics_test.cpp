// SPDX-License-Identifier: MIT
// --statistics in Ruff's layout, and as JSON.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "formats_fixture.hpp"

using namespace format_tests;

namespace {

std::string statistics(output::Format format, const output::Report& report) {
  std::ostringstream out;
  output::write_statistics(format, report, out);
  return out.str();
}

}  // namespace

TEST_CASE("statistics: count, code, fixable marker and rule name, most frequent first") {
  LintedReport linted;
  CHECK(statistics(output::Format::Concise, linted.report) ==
        "2\tTM102\t[ ] definitely-true-false-removed\n"
        "1\tTM101\t[*] export-for-inference-removed\n"
        "1\tTM201\t[*] export-strict-default-changed\n"
        "[*] fixable with `torchmigrate check --fix`\n");
  // Every format but json prints the text table.
  CHECK(statistics(output::Format::Sarif, linted.report) == statistics(output::Format::Concise, linted.report));
}

TEST_CASE("statistics: counts are right-aligned, [~] marks partly fixable codes") {
  std::string text = "import torch\n";
  for (int i = 0; i < 10; ++i) text += "ep = torch.export.export(m, (x,))\n";
  text += "ep = torch.export.export(m, (x,), **kwargs)\n";  // reported without a fix
  text += "ep = torch.export.export_for_inference(m, (x,))\n";
  LintedReport linted({{"pkg/m.py", text}});
  CHECK(statistics(output::Format::Full, linted.report) ==
        "11\tTM201\t[~] export-strict-default-changed\n"
        " 1\tTM101\t[*] export-for-inference-removed\n"
        "[*] fixable with `torchmigrate check --fix`\n");
}

TEST_CASE("statistics: no marker when nothing is fixable; --unsafe-fixes counts unsafe fixes") {
  engine::Settings only_tm102;
  only_tm102.selection = {{"TM102"}, {}, {}};
  LintedReport linted({{"pkg/m.py", kModule}}, only_tm102);
  CHECK(statistics(output::Format::Concise, linted.report) == "2\tTM102\tdefinitely-true-false-removed\n");

  engine::Settings unsafe;
  unsafe.selection = {{"TM102"}, {}, {}};
  unsafe.unsafe_fixes = true;
  LintedReport with_unsafe({{"pkg/m.py", kModule}}, unsafe);
  CHECK(statistics(output::Format::Concise, with_unsafe.report) ==
        "2\tTM102\t[*] definitely-true-false-removed\n"
        "[*] fixable with `torchmigrate check --fix --unsafe-fixes`\n");
}

TEST_CASE("statistics: json rows carry code, name, count and fixable_count") {
  LintedReport linted;
  nlohmann::json rows = nlohmann::json::parse(statistics(output::Format::Json, linted.report));
  CHECK(rows == nlohmann::json::parse(R"([
    {"code": "TM102", "name": "definitely-true-false-removed", "count": 2, "fixable_count": 0},
    {"code": "TM101", "name": "export-for-inference-removed", "count": 1, "fixable_count": 1},
    {"code": "TM201", "name": "export-strict-default-changed", "count": 1, "fixable_count": 1}
  ])"));
  LintedReport clean({{"pkg/clean.py", "import torch\n"}});
  CHECK(statistics(output::Format::Json, clean.report) == "[]\n");
  CHECK(statistics(output::Format::Concise, clean.report).empty());
}
