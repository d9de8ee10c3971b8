// SPDX-License-Identifier: MIT
// The fixer's safety nets, driven by deliberately faulty test checks: rollback on a syntax error
// (naming the rule), rollback at the pass cap, invalid edits refused, line endings and the
// final-newline state kept.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <memory>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

// Reports every call of the function named in its params and offers the fix the test asks for.
class FaultyCheck : public PythonCheck {
 public:
  explicit FaultyCheck(const RuleSpec& rule) : PythonCheck(rule), callee_(rule.check_params->at("callee")) {}
  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  void visit(python::Node node, PythonCheckContext& context) override {
    if (node.field("function").text() != callee_) return;
    Diagnostic& diagnostic = context.report(rule(), node.range());
    Fix fix;
    fix.title = "Test fix";
    const std::string& text = context.file().text();
    size_t previous = node.start() == 0 ? std::string::npos : text.rfind('\n', node.start() - 1);
    auto line_start = static_cast<uint32_t>(previous == std::string::npos ? 0 : previous + 1);
    if (callee_ == "breakme") {
      fix.edits.push_back(Edit::replace(node.range(), "breakme("));  // an unclosed call
    } else if (callee_ == "grow") {
      fix.edits.push_back(Edit::insert(0, "# grown\n"));  // never settles: the call stays
    } else if (callee_ == "badedit") {
      fix.edits.push_back(Edit::replace({node.start(), static_cast<uint32_t>(text.size() + 5)}, "x"));
    } else if (callee_ == "addline") {
      fix.edits.push_back(Edit::insert(line_start, "import os\n"));
      fix.edits.push_back(Edit::replace(node.range(), "added()"));
    } else if (callee_ == "tail") {
      fix.edits.push_back(Edit::replace({node.start(), static_cast<uint32_t>(text.size())}, "done()\n"));
    }
    diagnostic.fixes.push_back(std::move(fix));
  }

 private:
  std::string callee_;
};

// A build-file check whose fix deletes the `)` that closes `breakme(`.
class FaultyBuildCheck : public FileCheck {
 public:
  using FileCheck::FileCheck;
  void check(FileCheckContext& context) override {
    const std::string& text = context.file().text();
    size_t at = text.find("breakme(");
    if (at == std::string::npos) return;
    auto close = static_cast<uint32_t>(text.find(')', at));
    Diagnostic& diagnostic = context.report(rule(), {static_cast<uint32_t>(at), close + 1});
    Fix fix;
    fix.title = "Test fix";
    fix.edits.push_back(Edit::remove({close, close + 1}));
    diagnostic.fixes.push_back(std::move(fix));
  }
};

std::string build_rule_json() {
  return R"({"code": "TM996", "name": "test-build", "summary": "s", "message": "m", "language": "build",
    "severity": "warning", "since": "2.8", "kind": "build", "impact": "build", "release": {"from": "2.7", "to": "2.8"},
    "confidence": "high", "references": [], "triggers": ["breakme"], "check": {"family": "faulty-build"},
    "fix": {"applicability": "safe"},
    "docs": {"what": "w", "why": "w", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l",
             "example_file": "CMakeLists.txt"}})";
}

std::string rule_json(const std::string& code, const std::string& callee) {
  return R"({"code": ")" + code + R"(", "name": "test-)" + callee + R"(", "summary": "s", "message": "m",
    "severity": "warning", "since": "2.8", "kind": "removed", "impact": "breaks", "release": {"from": "2.7", "to": "2.8"}, "confidence": "high", "references": [], "triggers": [")" +
         callee + R"("], "check": {"family": "faulty", "params": {"callee": ")" + callee + R"("}},
    "fix": {"applicability": "safe"},
    "docs": {"what": "w", "why": "w", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l"}})";
}

struct TestLinter {
  std::vector<std::string> json = {rule_json("TM991", "breakme"), rule_json("TM992", "grow"),
                                   rule_json("TM993", "badedit"), rule_json("TM994", "addline"),
                                   rule_json("TM995", "tail")};
  Catalog catalog = Catalog::parse(
      {{"t1", json[0]}, {"t2", json[1]}, {"t3", json[2]}, {"t4", json[3]}, {"t5", json[4]}, {"t6", build_rule_json()}});
  CheckRegistry registry = [] {
    CheckRegistry built;
    built.add_python("faulty", [](const RuleSpec& rule) { return std::make_unique<FaultyCheck>(rule); });
    built.add_file("faulty-build", [](const RuleSpec& rule) { return std::make_unique<FaultyBuildCheck>(rule); });
    return built;
  }();
  std::unique_ptr<Linter> linter;

  explicit TestLinter(const std::string& select) {
    Settings settings;
    settings.selection.select = {select};
    linter = std::make_unique<Linter>(catalog, registry, settings);
  }
  FixOutcome fix(const std::string& text) const {
    return fix_file(*linter, SourceFile("t.py", text, Language::Python));
  }
};

}  // namespace

TEST_CASE("a fix that would break the syntax is rolled back and reported naming its rule") {
  TestLinter test("TM991");
  std::string text = "x = 1\ny = breakme(2)\n";
  FixOutcome outcome = test.fix(text);
  CHECK(outcome.text == text);
  CHECK(outcome.applied.empty());
  REQUIRE(outcome.rollback.has_value());
  CHECK(outcome.rollback->code == kInternalErrorCode);
  CHECK(outcome.rollback->message.find("TM991") != std::string::npos);
  CHECK(outcome.rollback->message.find("line 2") != std::string::npos);
  REQUIRE(outcome.problems.size() == 1);
  // The findings of the unchanged file are still reported.
  REQUIRE(outcome.remaining.size() == 1);
  CHECK(outcome.remaining[0].code == "TM991");
}

TEST_CASE("the culprit is named even when a good fix shares its pass") {
  TestLinter test("TM99");
  FixOutcome outcome = test.fix("a = addline()\nb = breakme()\n");
  REQUIRE(outcome.rollback.has_value());
  CHECK(outcome.rollback->message.find("TM991") != std::string::npos);
  CHECK(outcome.rollback->message.find("TM994") == std::string::npos);
  CHECK(outcome.text == "a = addline()\nb = breakme()\n");
}

TEST_CASE("a file that already had a syntax error is rolled back only when a fix adds one") {
  TestLinter breaking("TM991");
  std::string broken = "def f(:\n    pass\ny = breakme(2)\n";
  CHECK(breaking.linter->syntax_errors(SourceFile("broken.py", broken, Language::Python)) > 0);
  FixOutcome outcome = breaking.fix(broken);
  REQUIRE(outcome.rollback.has_value());
  CHECK(outcome.text == broken);
  // Not an internal error: the file was broken before any fix.
  CHECK(outcome.rollback->code == kIoErrorCode);
  CHECK(outcome.rollback->severity == Severity::Warning);
  CHECK_THAT(outcome.rollback->message, Catch::Contains("already has a syntax error (TM901)"));
  CHECK_THAT(outcome.rollback->message, !Catch::Contains("please report"));

  TestLinter fine("TM994");
  outcome = fine.fix("def f(:\n    pass\ny = addline()\n");
  CHECK_FALSE(outcome.rollback.has_value());
  CHECK(outcome.text == "def f(:\n    pass\nimport os\ny = added()\n");
}

TEST_CASE("fixes that never settle stop at the pass cap, are rolled back and reported") {
  TestLinter test("TM992");
  std::string text = "grow()\n";
  FixOutcome outcome = test.fix(text);
  CHECK(outcome.hit_pass_limit);
  CHECK(outcome.text == text);
  CHECK(outcome.applied.empty());
  REQUIRE(outcome.problems.size() == 1);
  CHECK(outcome.problems[0].code == kInternalErrorCode);
  CHECK(outcome.problems[0].message.find("TM992") != std::string::npos);
  CHECK(outcome.problems[0].message.find(std::to_string(kMaxFixPasses) + " passes") != std::string::npos);
}

TEST_CASE("an edit outside the text is refused and reported once, other fixes still apply") {
  TestLinter test("TM99");
  FixOutcome outcome = test.fix("badedit()\nbadedit()\nz = addline()\n");
  CHECK(outcome.text == "badedit()\nbadedit()\nimport os\nz = added()\n");
  REQUIRE(outcome.problems.size() == 1);
  CHECK(outcome.problems[0].message.find("TM993") != std::string::npos);
  CHECK_FALSE(outcome.rollback.has_value());
}

TEST_CASE("inserted line breaks follow the ending of the line they land on") {
  TestLinter test("TM994");
  SECTION("LF") { CHECK(test.fix("a = 1\nb = addline()\n").text == "a = 1\nimport os\nb = added()\n"); }
  SECTION("CRLF") {
    CHECK(test.fix("a = 1\r\nb = addline()\r\n").text == "a = 1\r\nimport os\r\nb = added()\r\n");
  }
  SECTION("mixed: each line keeps its own ending") {
    std::string text = "a = addline()\r\nb = 1\nc = addline()\n";
    CHECK(test.fix(text).text == "import os\r\na = added()\r\nb = 1\nimport os\nc = added()\n");
  }
  SECTION("a last line without terminator follows the line before it") {
    CHECK(test.fix("a = 1\r\nb = addline()").text == "a = 1\r\nimport os\r\nb = added()");
  }
}

TEST_CASE("adapt_line_endings leaves existing CRLF alone and never touches text without newlines") {
  CHECK(adapt_line_endings(Edit::insert(0, "x\r\ny\n"), "a\r\n").replacement == "x\r\ny\r\n");
  CHECK(adapt_line_endings(Edit::insert(0, "x\ny\n"), "a\n").replacement == "x\ny\n");
  CHECK(adapt_line_endings(Edit::insert(0, "x"), "a\r\n").replacement == "x");
}

TEST_CASE("the final-newline state survives a fix that reaches the end of the file") {
  TestLinter test("TM995");
  CHECK(test.fix("a = 1\ntail()").text == "a = 1\ndone()");
  CHECK(test.fix("a = 1\r\ntail()").text == "a = 1\r\ndone()");
  CHECK(test.fix("a = 1\ntail()\n").text == "a = 1\ndone()\n");
  CHECK(test.fix("a = 1\r\ntail()\r\n").text == "a = 1\r\ndone()\r\n");
}

TEST_CASE("every front counts the syntax errors of its files") {
  TestLinter test("TM99");
  auto errors = [&](const char* path, const char* text) {
    return test.linter->syntax_errors(SourceFile(path, text, engine::language_for(path)));
  };
  CHECK(errors("a.py", "x = 1\n") == 0);
  CHECK(errors("a.py", "x = (1\n") >= 1);
  CHECK(errors("a.py", "def f(:\n    pass\n") >= 1);
  CHECK(errors("pyproject.toml", "[project]\nname = \"x\"\n") == 0);
  CHECK(errors("pyproject.toml", "[project\nname = \"x\"\n") == 1);
  CHECK(errors("CMakeLists.txt", "find_package(Torch REQUIRED)\n") == 0);
  CHECK(errors("CMakeLists.txt", "find_package(Torch REQUIRED\n") == 1);
  CHECK(errors("CMakeLists.txt", "set(A \"unclosed)\n") >= 1);
  CHECK(errors("requirements.txt", "torch>=2.7\n") == 0);
  CHECK(errors("Dockerfile", "ENV A=\"x\nRUN true\n") >= 1);
  CHECK(errors("a.ipynb", "{\"cells\": [], \"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}}") == 0);
  CHECK(errors("a.ipynb", "{\"cells\": [") == 1);
}

TEST_CASE("a fix that would break a build file's syntax is rolled back too") {
  TestLinter test("TM996");
  std::string cmake = "cmake_minimum_required(VERSION 3.18)\nbreakme(Torch)\n";
  FixOutcome outcome = fix_file(*test.linter, SourceFile("CMakeLists.txt", cmake, Language::BuildFile));
  REQUIRE(outcome.rollback.has_value());
  CHECK(outcome.rollback->message.find("TM996") != std::string::npos);
  CHECK(outcome.text == cmake);
}
