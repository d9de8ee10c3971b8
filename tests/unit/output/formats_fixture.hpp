// SPDX-License-Identifier: MIT
// The fixed input the format tests share: two files linted with the built-in rules, reported
// from the working directory /repo; plus hand-made findings for escaping.
#pragma once

#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/output/report.hpp"

namespace format_tests {

using namespace torchmigrate;

// pkg/a b.py: TM101 (error, safe fix). pkg/m.py: TM102 twice (error, fix unsafe while 2.7 is
// supported), TM201 (warning, keep-old fix safe, adopt-new fix unsafe).
inline const char* kSpacedFile = "import torch\n\nep = torch.export.export_for_inference(m, (x,))\n";
inline const char* kModule =
    "import torch\n"
    "from torch.fx.experimental.symbolic_shapes import definitely_true\n"
    "\n"
    "ep = torch.export.export(m, (x,))\n"
    "if definitely_true(a == b):\n"
    "    pass\n";

struct LintedReport {
  engine::Settings settings;
  engine::Linter linter;
  output::Report report;

  LintedReport() : LintedReport({{"pkg/a b.py", kSpacedFile}, {"pkg/m.py", kModule}}) {}
  // (An initializer list, not a vector: a vector's iterator-pair constructor would make
  // `LintedReport({{"path", "text"}})` ambiguous with the copy constructor.)
  explicit LintedReport(std::initializer_list<std::pair<std::string, std::string>> files, engine::Settings chosen = {})
      : settings(std::move(chosen)), linter(engine::Catalog::builtin(), checks::builtin_registry(), settings) {
    report.catalog = &engine::Catalog::builtin();
    report.settings = &linter.settings();
    report.root = "/repo";
    for (const auto& [path, text] : files) {
      auto file = std::make_shared<SourceFile>(path, text, Language::Python);
      std::vector<Diagnostic> diagnostics = linter.lint(*file);
      if (!diagnostics.empty()) report.files.push_back({file, std::move(diagnostics)});
    }
  }
};

// One hand-made finding, for what the rules' messages never contain (escapes, odd paths).
struct HandMadeReport {
  engine::Settings settings;
  output::Report report;

  HandMadeReport(const std::string& path, const std::string& text, Diagnostic diagnostic) {
    report.catalog = &engine::Catalog::builtin();
    report.settings = &settings;
    report.root = "/repo";
    auto file = std::make_shared<SourceFile>(path, text, Language::Python);
    report.files.push_back({file, {std::move(diagnostic)}});
  }
};

template <typename Writer>
std::string render(Writer writer, const output::Report& report) {
  std::ostringstream out;
  writer(report, out);
  return out.str();
}

// The lines of `text`, without their terminators.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace format_tests
