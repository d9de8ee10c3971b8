// SPDX-License-Identifier: MIT
// Runs every catalog rule's documented example: `before` must be flagged by the rule, `--fix`
// must turn it into exactly `after` (and `after_adopt_new` under adopt-new), and the
// recommended code must not be flagged, so `torchmigrate rule CODE` and docs/rules cannot drift.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;
using engine::RuleSpec;

namespace {

Language language_of(const RuleSpec& rule) {
  switch (rule.language) {
    case engine::RuleLanguage::Python: return Language::Python;
    case engine::RuleLanguage::Cxx: return Language::Cxx;
    case engine::RuleLanguage::Build: return Language::BuildFile;
  }
  return Language::Unknown;
}

// Rules an example needs besides its own: the codes its suppression comments name (TM001's
// example suppresses another rule).
std::set<std::string> codes_for(const RuleSpec& rule) {
  std::set<std::string> codes{rule.code};
  static const std::regex suppression(R"((?:noqa:|NOLINT\()\s*([A-Z0-9, ]+))");
  for (const std::string* text : {&rule.docs().before, &rule.docs().after, &rule.docs().after_adopt_new}) {
    for (std::sregex_iterator it(text->begin(), text->end(), suppression), end; it != end; ++it) {
      static const std::regex code("TM[0-9]{3}");
      std::string list = (*it)[1].str();
      for (std::sregex_iterator c(list.begin(), list.end(), code); c != end; ++c) codes.insert(c->str());
    }
  }
  return codes;
}

struct Example {
  const RuleSpec& rule;
  fs::path path;  // not written: the linter reads the text given to it

  [[nodiscard]] engine::Settings settings(bool unsafe, bool adopt_new) const {
    engine::Settings settings;
    std::set<std::string> codes = codes_for(rule);
    settings.selection.select.assign(codes.begin(), codes.end());
    settings.unsafe_fixes = unsafe;
    if (adopt_new) settings.policies["ALL"] = FixPolicy::AdoptNew;
    // A project pinned to the release before the rule's and upgrading to the rule's own release.
    settings.min_torch = rule.release.from;
    settings.max_torch = rule.release.from;
    if (settings.target < rule.since_release) settings.target = rule.since_release;
    return settings;
  }

  [[nodiscard]] SourceFile file(const std::string& text) const {
    return SourceFile(path.string(), text, engine::language_for(path));
  }

  // Findings of this rule in `text`.
  [[nodiscard]] std::vector<Diagnostic> findings(const std::string& text, bool adopt_new = false) const {
    engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings(true, adopt_new));
    std::vector<Diagnostic> found;
    for (Diagnostic& diagnostic : linter.lint(file(text))) {
      if (diagnostic.code == rule.code) found.push_back(std::move(diagnostic));
    }
    return found;
  }

  [[nodiscard]] std::string fixed(const std::string& text, bool unsafe, bool adopt_new) const {
    engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings(unsafe, adopt_new));
    engine::FixOutcome outcome = engine::fix_file(linter, file(text));
    INFO("fix rolled back: " << (outcome.rollback ? outcome.rollback->message : "no"));
    CHECK_FALSE(outcome.rollback.has_value());
    CHECK_FALSE(outcome.hit_pass_limit);
    return outcome.text;
  }
};

std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& diagnostic : diagnostics) out += "\n  " + diagnostic.code + ": " + diagnostic.message;
  return out;
}

bool has_applicable_fix(const RuleSpec& rule) {
  return rule.fix_applicability == Applicability::Safe || rule.fix_applicability == Applicability::Unsafe;
}

}  // namespace

TEST_CASE("every catalog example is flagged, fixed to its `after` text, and the `after` text is clean") {
  const engine::Catalog& catalog = engine::Catalog::builtin();
  REQUIRE(catalog.rules().size() >= 20);
  fs::path directory = fs::temp_directory_path() / "torchmigrate-catalog-examples";
  for (const RuleSpec& rule : catalog.rules()) {
    DYNAMIC_SECTION(rule.code << " " << rule.name) {
      Example example{rule, directory / rule.docs().example_file};
      INFO("example file: " << rule.docs().example_file);
      REQUIRE(engine::language_for(example.path) == language_of(rule));
      REQUIRE(!rule.docs().before.empty());
      REQUIRE(!rule.docs().after.empty());
      CHECK(rule.docs().before != rule.docs().after);
      // A changed default documents both choices; other rules have one way forward.
      CHECK(rule.fix_policies == !rule.docs().after_adopt_new.empty());
      // A verdict that rests on a whole project's facts (its Python files, its other packaging
      // files) cannot be shown on one file: tests/fixtures/projects/python-floor and
      // onnxscript-missing run those examples as project trees.
      if (rule.code == "TM405" || rule.code == "TM406") continue;

      std::vector<Diagnostic> before = example.findings(rule.docs().before);
      INFO("findings of `before`:" << describe(before));
      CHECK(!before.empty());

      std::vector<Diagnostic> after = example.findings(rule.docs().after);
      INFO("findings of `after`:" << describe(after));
      CHECK(after.empty());
      if (!rule.docs().after_adopt_new.empty()) {
        std::vector<Diagnostic> adopted = example.findings(rule.docs().after_adopt_new, true);
        INFO("findings of `after_adopt_new`:" << describe(adopted));
        CHECK(adopted.empty());
      }

      if (has_applicable_fix(rule)) {
        // `--fix`, plus `--unsafe-fixes` where a fix of the example needs it (an unsafe fix,
        // (or one whose `requires` the default supported torch does not meet).
        engine::Settings defaults = example.settings(false, false);
        bool unsafe = std::any_of(before.begin(), before.end(), [&](const Diagnostic& diagnostic) {
          const Fix* fix = engine::chosen_fix(diagnostic, defaults);
          return fix != nullptr && defaults.effective(*fix) == Applicability::Unsafe;
        });
        CHECK(example.fixed(rule.docs().before, unsafe, false) == rule.docs().after);
        if (unsafe) CHECK(example.fixed(rule.docs().before, false, false) != rule.docs().after);
        if (!rule.docs().after_adopt_new.empty()) {
          CHECK(example.fixed(rule.docs().before, true, true) == rule.docs().after_adopt_new);
        }
      } else {
        // No fix `--fix` could apply: the `after` text is a recommendation the user writes.
        CHECK(example.fixed(rule.docs().before, true, true) == rule.docs().before);
      }
    }
  }
}

TEST_CASE("`docs.example_file` defaults by language and is required for build rules") {
  auto parse = [](const std::string& language, const std::string& example_file) {
    std::string text =
        R"({"code": "TM999", "name": "test-rule", "summary": "s", "message": "m",
      "severity": "warning", "default_enabled": true, "since": "2.8", "confidence": "high", "language": ")" +
        language + R"(", "kind": ")" + (language == "build" ? "build" : "removed") +
        R"(", "impact": "build", "release": {"from": "2.7", "to": "2.8"}, "references": [], "triggers": ["x"], "check": {"family": "f"},
      "fix": {"applicability": "none"},
      "docs": {"what": "w", "why": "y", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l")" +
        (example_file.empty() ? "" : R"(, "example_file": ")" + example_file + "\"") + "}}";
    return engine::parse_rule(nlohmann::json::parse(text), "TM999.json");
  };
  CHECK(parse("python", "").docs().example_file == "example.py");
  CHECK(parse("cxx", "").docs().example_file == "example.cpp");
  CHECK(parse("cxx", "kernels.cu").docs().example_file == "kernels.cu");
  CHECK(parse("build", "Dockerfile").docs().example_file == "Dockerfile");
  CHECK_THROWS_WITH(parse("build", ""), Catch::Contains("build rules need `example_file`"));
  CHECK_THROWS_WITH(parse("build", "docker/Dockerfile"), Catch::Contains("without directories"));
}
