// SPDX-License-Identifier: MIT
// The C/C++ and build fronts parse their files for their checks (FileParses): each form once per
// file, shared by the file's checks, and only the forms of the front's language.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

// What the probe checks saw of the last file linted.
struct Seen {
  const void* first = nullptr;
  const void* second = nullptr;
  bool other_form_refused = false;
  std::string_view tree_root;
};
Seen seen;

// Asks its front for the same form twice, and for a form of another front.
class ProbeCheck : public FileCheck {
 public:
  using FileCheck::FileCheck;
  void check(FileCheckContext& context) override {
    seen = {};
    if (rule().language == RuleLanguage::Cxx) {
      seen.first = &context.source_scan();
      seen.second = &context.source_scan();
      seen.other_form_refused = refuses([&] { (void)context.build_file(); });
    } else {
      seen.first = &context.build_file();
      seen.second = &context.build_file();
      seen.other_form_refused = refuses([&] { (void)context.source_scan(); });
      if (context.build_file().kind == buildfiles::FileKind::SetupPy)
        seen.tree_root = context.python_tree().root().kind();
    }
  }

 private:
  template <typename Ask>
  static bool refuses(Ask ask) {
    try {
      ask();
    } catch (const std::logic_error&) {
      return true;
    }
    return false;
  }
};

std::string rule_json(const std::string& code, const std::string& language) {
  return R"({"code": ")" + code + R"(", "name": "probe-)" + language + R"(", "summary": "s", "message": "m",
    "language": ")" +
         language + R"(", "severity": "warning", "since": "2.8", "kind": ")" +
         (language == "cxx" ? "removed" : "build") + R"(", "impact": ")" + (language == "cxx" ? "breaks" : "build") +
         R"(",
    "release": {"from": "2.7", "to": "2.8"}, "confidence": "high", "references": [], "triggers": ["probe"],
    "check": {"family": "probe"}, "fix": {"applicability": "safe"},
    "docs": {"what": "w", "why": "w", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l",
             "example_file": ")" +
         (language == "cxx" ? "a.cpp" : "CMakeLists.txt") + R"("}})";
}

struct ProbeLinter {
  Catalog catalog = Catalog::parse({{"t1", rule_json("TM997", "cxx")}, {"t2", rule_json("TM998", "build")}});
  CheckRegistry registry = [] {
    CheckRegistry built;
    built.add_file("probe", [](const RuleSpec& rule) { return std::make_unique<ProbeCheck>(rule); });
    return built;
  }();
  Linter linter{catalog, registry, Settings{}};
};

}  // namespace

// The probe asked twice for its front's form and once for another front's.
void check_made_once(ProbeLinter& probe, const SourceFile& file) {
  (void)probe.linter.lint(file);
  CHECK(seen.first != nullptr);
  CHECK(seen.first == seen.second);
  CHECK(seen.other_form_refused);
}

TEST_CASE("the C/C++ front scans a file once for its checks and gives no build file") {
  ProbeLinter probe;
  check_made_once(probe, SourceFile("a.cpp", "int probe = 1;\n", Language::Cxx));
}

TEST_CASE("the build front splits a file once, parses setup.py as Python, and gives no token scan") {
  ProbeLinter probe;
  check_made_once(probe, SourceFile("CMakeLists.txt", "set(probe 1)\n", Language::BuildFile));
  CHECK(seen.tree_root.empty());

  (void)probe.linter.lint(SourceFile("setup.py", "probe = 1\n", Language::Python));
  CHECK(seen.first == seen.second);
  CHECK(seen.tree_root == "module");
}
