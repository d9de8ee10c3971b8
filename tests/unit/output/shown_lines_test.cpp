// SPDX-License-Identifier: MIT
// A plain report keeps only the lines its findings and fixes reach (engine/run/shown_lines.hpp):
// every format must print, byte for byte, what it prints from the whole texts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/run/shown_lines.hpp"
#include "torchmigrate/output/report.hpp"

using namespace torchmigrate;
namespace fs = std::filesystem;

namespace {

// Every third line break becomes a lone CR, every third CRLF: lines the excerpt must keep apart.
std::string with_mixed_endings(const std::string& text) {
  std::string out;
  size_t line = 0;
  for (char c : text) {
    if (c != '\n') {
      out += c;
      continue;
    }
    out += line % 3 == 0 ? "\r" : line % 3 == 1 ? "\r\n" : "\n";
    ++line;
  }
  return out;
}

struct Reports {
  output::Report whole;
  output::Report shown;
};

void add(Reports& reports, const engine::Linter& linter, const std::string& path, const std::string& text) {
  auto file = std::make_shared<const SourceFile>(path, text, engine::language_for(path));
  std::vector<Diagnostic> diagnostics = linter.lint(*file);
  if (diagnostics.empty()) return;
  std::vector<Diagnostic> rebased = diagnostics;
  std::shared_ptr<const SourceFile> excerpt = engine::keep_shown_lines(*file, rebased);
  reports.whole.files.push_back({file, std::move(diagnostics)});
  reports.shown.files.push_back({excerpt, std::move(rebased)});
}

}  // namespace

TEST_CASE("every format prints the same report from the shown lines as from the whole texts") {
  engine::Settings settings;
  settings.selection.select = {"ALL"};
  settings.unsafe_fixes = true;
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  Reports reports;
  for (output::Report* report : {&reports.whole, &reports.shown}) {
    report->catalog = &engine::Catalog::builtin();
    report->settings = &linter.settings();
    report->root = "/repo";
  }
  fs::path fixtures = fs::path(TORCHMIGRATE_SOURCE_DIR) / "tests" / "fixtures";
  for (const char* kind : {"python", "build", "cxx"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fixtures / kind)) {
      std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.ends_with(".fixed") || name.ends_with(".expected")) continue;
      if (engine::language_for(entry.path()) == Language::Unknown) continue;
      std::string relative = entry.path().lexically_relative(fixtures).generic_string();
      std::string text = engine::read_file(entry.path()).text.value();
      add(reports, linter, relative, text);
      add(reports, linter, "mixed/" + relative, with_mixed_endings(text));
    }
  }
  // A finding on the last line, without a final line break, and a fix that adds an import at the top.
  add(reports, linter, "edge/last_line.py", "import torch\n\n\nx = torch.export.export_for_inference(m, (a,))");
  REQUIRE(reports.whole.files.size() > 100);
  size_t kept = 0, whole = 0;
  for (size_t i = 0; i < reports.whole.files.size(); ++i) {
    whole += reports.whole.files[i].file->text().size();
    kept += reports.shown.files[i].file->text().size();
  }
  CHECK(kept < whole / 2);
  for (const std::string& name : output::format_names()) {
    DYNAMIC_SECTION(name) {
      std::ostringstream from_whole, from_shown;
      output::write(output::parse_format(name), reports.whole, from_whole);
      output::write(output::parse_format(name), reports.shown, from_shown);
      CHECK(from_shown.str() == from_whole.str());
    }
  }
}
