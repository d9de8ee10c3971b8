// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

Settings only(const std::string& code) {
  Settings settings;
  settings.selection.select = {code};
  return settings;
}

std::vector<Diagnostic> lint(const std::string& code, const std::string& text) {
  Linter linter(Catalog::builtin(), checks::builtin_registry(), only(code));
  return linter.lint(SourceFile("t.py", text, Language::Python));
}

std::string fixed(const std::string& code, const std::string& text, bool unsafe = false, int min_minor = 7) {
  Settings settings = only(code);
  settings.unsafe_fixes = unsafe;
  settings.min_torch = TorchVersion{2, min_minor};
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  return fix_file(linter, SourceFile("t.py", text, Language::Python)).text;
}

RuleSpec rule_with(const nlohmann::json& params) {
  nlohmann::json entry = nlohmann::json::parse(R"({
    "code": "TM999", "name": "test-rule", "summary": "s", "message": "`{option}`: {detail}",
    "severity": "warning", "default_enabled": true, "since": "2.8", "kind": "renamed", "impact": "breaks", "release": {"from": "2.7", "to": "2.8"}, "confidence": "high",
    "references": [], "triggers": ["xx"], "check": {"family": "config-option"},
    "fix": {"applicability": "safe"},
    "docs": {"what": "w", "why": "w", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l"}})");
  entry["check"]["params"] = params;
  return parse_rule(entry, "test");
}

}  // namespace

TEST_CASE("compile_wrapper_with_O0 values map to compile_wrapper_opt_level") {
  const std::string source =
      "import torch._inductor.config as ic\n"
      "ic.aot_inductor.compile_wrapper_with_O0 = True\n"
      "ic.aot_inductor.compile_wrapper_with_O0 = False\n"
      "ic.aot_inductor.compile_wrapper_with_O0 = flag\n";
  std::vector<Diagnostic> diagnostics = lint("TM103", source);
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[2].fixes.at(0).applicability == Applicability::DisplayOnly);
  CHECK(diagnostics[2].fixes.at(0).edits.at(1).replacement == "\"O0\" if flag else \"O1\"");
  // `compile_wrapper_opt_level` exists from torch 2.8: safe once 2.7 is no longer supported.
  CHECK(fixed("TM103", source) == source);
  CHECK(fixed("TM103", source, false, 8) ==
        "import torch._inductor.config as ic\n"
        "ic.aot_inductor.compile_wrapper_opt_level = \"O0\"\n"
        "ic.aot_inductor.compile_wrapper_with_O0 = flag\n");
}

TEST_CASE("the custom op layout move needs torch 2.8 and is display-only inside options") {
  const std::string source =
      "import torch\n"
      "from torch._functorch import config as fc\n"
      "torch._inductor.config.custom_op_default_layout_constraint = 'flexible_layout'\n"
      "torch.compile(m, options={'custom_op_default_layout_constraint': 'flexible_layout'})\n";
  std::vector<Diagnostic> diagnostics = lint("TM103", source);
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[0].fixes.at(0).requirements.torch == TorchVersion{2, 8});
  CHECK(diagnostics[0].fixes.at(0).edits.at(0).replacement == "fc.custom_op_default_layout_constraint");
  CHECK(diagnostics[1].fixes.empty());  // a key string cannot move to another module
  CHECK(fixed("TM103", source) == source);
  CHECK(fixed("TM103", source, false, 8).find("fc.custom_op_default_layout_constraint = ") != std::string::npos);
}

TEST_CASE("ignored options: safe, unsafe and report-only values") {
  const std::string source =
      "import torch\n"
      "torch._dynamo.config.enable_cpp_framelocals_guard_eval = True\n"
      "torch._inductor.config.use_mixed_mm = True\n"
      "torch._inductor.config.autotune_fallback_to_aten = True\n"
      "x = torch._inductor.config.use_mixed_mm\n";
  std::vector<Diagnostic> diagnostics = lint("TM205", source);
  REQUIRE(diagnostics.size() == 3);  // reads are not reported
  CHECK(diagnostics[0].fixes.at(0).applicability == Applicability::Safe);
  CHECK(diagnostics[1].fixes.at(0).applicability == Applicability::Unsafe);
  CHECK(diagnostics[2].fixes.empty());
  CHECK(fixed("TM205", source, true) ==
        "import torch\n"
        "torch._inductor.config.autotune_fallback_to_aten = True\n"
        "x = torch._inductor.config.use_mixed_mm\n");
}

TEST_CASE("a setting with side effects is reported without a fix") {
  std::vector<Diagnostic> diagnostics =
      lint("TM104", "import torch\ntorch._inductor.config.aot_inductor.emit_current_arch_binary = decide()\n");
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].fixes.empty());
}

TEST_CASE("config-option params are validated") {
  const nlohmann::json option = {{"module", "torch._inductor.config"}, {"key", "k"}, {"detail", "d"},
                                 {"values", {{{"when", "*"}, {"action", "delete"}}}}};
  CHECK_NOTHROW(checks::make_config_option_check(rule_with({{"options", {option}}})));
  nlohmann::json bad_action = option;
  bad_action["values"][0]["action"] = "explode";
  CHECK_THROWS_AS(checks::make_config_option_check(rule_with({{"options", {bad_action}}})), CatalogError);
  nlohmann::json unknown_key = option;
  unknown_key["colour"] = "blue";
  CHECK_THROWS_AS(checks::make_config_option_check(rule_with({{"options", {unknown_key}}})), CatalogError);
}
