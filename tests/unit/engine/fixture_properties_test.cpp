// SPDX-License-Identifier: MIT
// Properties of fixing, over every fixture in tests/fixtures with ALL rules enabled (so rules
// meet each other's code): fixing is idempotent, never rolls back or hits the pass cap, leaves
// code that parses, leaves nothing that the same settings would still fix, and gives the same
// bytes for CRLF, mixed-ending and BOM copies of the file as for the LF original.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<fs::path> fixture_inputs() {
  fs::path root = fs::path(TORCHMIGRATE_SOURCE_DIR) / "tests" / "fixtures";
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.ends_with(".fixed") || name == "README.md") continue;
    if (entry.path().extension() == ".cpp" && entry.path().parent_path() == root) continue;  // the runner
    if (language_for(entry.path()) == Language::Unknown) continue;
    inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

// "\n" -> "\r\n" on every line (all = true) or every other line (a mixed file).
std::string with_crlf(const std::string& text, bool all) {
  std::string out;
  size_t line = 0;
  for (char c : text) {
    if (c == '\n' && (all || line++ % 2 == 0)) out += '\r';
    out += c;
  }
  return out;
}

std::string without_cr_before_lf(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

struct Configuration {
  const char* name;
  bool unsafe;
  bool adopt_new;
  const char* min_torch;
};

constexpr Configuration kConfigurations[] = {
    {"safe fixes", false, false, "2.7"},
    {"unsafe fixes", true, false, "2.7"},
    {"unsafe fixes, adopt-new", true, true, "2.7"},
    {"safe fixes, min-torch 2.8", false, false, "2.8"},
};

Settings settings_for(const Configuration& configuration) {
  Settings settings;
  settings.selection.select = {"ALL"};
  settings.unsafe_fixes = configuration.unsafe;
  settings.min_torch = TorchVersion::parse(configuration.min_torch);
  if (configuration.adopt_new) settings.policies["ALL"] = FixPolicy::AdoptNew;
  return settings;
}

FixOutcome fix(const Linter& linter, const fs::path& path, const std::string& text) {
  return fix_file(linter, SourceFile(path.string(), text, language_for(path)));
}

void check_clean(const FixOutcome& outcome) {
  for (const Diagnostic& problem : outcome.problems) INFO("internal error: " << problem.message);
  CHECK(outcome.problems.empty());
  CHECK_FALSE(outcome.rollback.has_value());
  CHECK_FALSE(outcome.hit_pass_limit);
}

}  // namespace

TEST_CASE("fixing every fixture with every rule enabled is safe, idempotent and complete") {
  std::vector<fs::path> inputs = fixture_inputs();
  REQUIRE(inputs.size() >= 10);
  for (const Configuration& configuration : kConfigurations) {
    Linter linter(Catalog::builtin(), checks::builtin_registry(), settings_for(configuration));
    for (const fs::path& input : inputs) {
      DYNAMIC_SECTION(configuration.name << ": " << input.parent_path().filename().string() << "/"
                                         << input.filename().string()) {
        std::string original = read(input);
        FixOutcome first = fix(linter, input, original);
        check_clean(first);
        const std::string& fixed = first.text;

        // fix(fix(x)) == fix(x)
        FixOutcome second = fix(linter, input, fixed);
        check_clean(second);
        CHECK(second.text == fixed);
        CHECK(second.applied.empty());

        // Fixed code parses (no worse than the input, for fixtures that test broken files), as
        // every front that reads the file counts syntax errors.
        CHECK(linter.syntax_errors(SourceFile(input.string(), fixed, language_for(input))) <=
              linter.syntax_errors(SourceFile(input.string(), original, language_for(input))));

        // Nothing the same settings would fix is left.
        for (const Diagnostic& diagnostic : first.remaining) {
          INFO("remaining: " << diagnostic.code << " " << diagnostic.message);
          const Fix* chosen = chosen_fix(diagnostic, linter.settings());
          CHECK((chosen == nullptr || chosen->edits.empty() || !will_apply(*chosen, linter.settings())));
        }

        // Line endings: CRLF in, CRLF out, identical otherwise; a mixed file keeps the ending
        // of every line the fixes did not write.
        if (original.find('\r') == std::string::npos) {
          FixOutcome windows = fix(linter, input, with_crlf(original, true));
          check_clean(windows);
          CHECK(windows.text == with_crlf(fixed, true));
          FixOutcome mixed = fix(linter, input, with_crlf(original, false));
          check_clean(mixed);
          CHECK(without_cr_before_lf(mixed.text) == fixed);
          if (first.applied.empty()) CHECK(mixed.text == with_crlf(original, false));
        }

        // BOM: decoded before fixing, restored after; the rest is byte for byte the same.
        DecodedSource decoded = decode_source(std::string(kUtf8Bom) + original);
        REQUIRE(decoded.skip_reason.empty());
        FixOutcome bom = fix(linter, input, decoded.text);
        check_clean(bom);
        CHECK(encode_source(bom.text, decoded.bom) == std::string(kUtf8Bom) + fixed);
      }
    }
  }
}

// The catalog's `fix.applicability` is the only word on fix safety: a check may offer less
// (display-only inside compile options, unsafe when the project's torch range is not met), never
// more, and every rule's fixtures reach exactly the catalog's level somewhere, so the catalog does
// not claim a safety no check delivers.
TEST_CASE("every fix is as safe as its catalog entry says, never safer") {
  auto rank = [](Applicability applicability) {
    switch (applicability) {
      case Applicability::Safe: return 2;
      case Applicability::Unsafe: return 1;
      case Applicability::DisplayOnly: return 0;
    }
    return 0;
  };
  Settings settings;
  settings.selection.select = {"ALL"};
  // Every rule reported (the range crosses every change) and, since `fix.applicability` is read
  // before Settings::effective, no fix made unsafe by its requirement.
  settings.min_torch = TorchVersion::parse("2.7");
  settings.max_torch = TorchVersion::parse("2.7");  // pinned to 2.7 and upgrading: keep-old keeps behaviour
  std::map<std::string, int> safest;  // per rule, the safest fix seen
  // At every target: a rule superseded by a later one is only reported below its successor's.
  for (TorchVersion target : Catalog::builtin().targets()) {
    settings.target = target;
    Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
    for (const fs::path& input : fixture_inputs()) {
      SourceFile file(input.string(), read(input), language_for(input));
      for (const Diagnostic& diagnostic : linter.lint(file)) {
        const RuleSpec* rule = Catalog::builtin().find(diagnostic.code);
        if (rule == nullptr) continue;  // TM9xx notes
        INFO(input.filename().string() << ": " << diagnostic.code << " " << diagnostic.message);
        if (!rule->fix_applicability) {
          CHECK(diagnostic.fixes.empty());
          continue;
        }
        for (const Fix& fix : diagnostic.fixes) {
          INFO("fix: " << fix.title);
          CHECK(rank(fix.applicability) <= rank(*rule->fix_applicability));
          safest[rule->code] = std::max(safest.count(rule->code) ? safest[rule->code] : -1, rank(fix.applicability));
        }
      }
    }
  }
  // Rules whose verdict rests on the facts of a whole project report nothing for a file linted
  // alone; their fixes are tested on project trees (tests/fixtures/projects/python-floor and
  // onnxscript-missing, run by tests/e2e/test_project_fixtures.py).
  const std::set<std::string> project_only = {"TM405", "TM406"};
  for (const RuleSpec& rule : Catalog::builtin().rules()) {
    if (!rule.fix_applicability || project_only.contains(rule.code)) continue;
    INFO(rule.code << ": no fixture gets a fix as safe as the catalog's `fix.applicability`");
    CHECK(safest.count(rule.code) == 1);
    CHECK(safest[rule.code] == rank(*rule.fix_applicability));
  }
}
