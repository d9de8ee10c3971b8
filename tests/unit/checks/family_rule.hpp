// SPDX-License-Identifier: MIT
// A one-rule catalog (TM999) of a check family with the given params: shows that a family takes
// every name from its params, with nothing from the built-in rule that uses it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace torchmigrate::testing {

inline engine::Catalog family_catalog(const std::string& family, const std::string& params, const std::string& message,
                                      const std::string& trigger) {
  nlohmann::json entry = nlohmann::json::parse(R"({"code": "TM999", "name": "other-rule", "summary": "s",
    "severity": "warning", "default_enabled": true, "since": "2.8", "kind": "deprecated", "impact": "deprecated",
    "release": {"from": "2.7", "to": "2.8"}, "confidence": "high", "references": [], "fix": {"applicability": "unsafe"},
    "docs": {"what": "w", "why": "w", "before": "b", "after": "a", "fix_safety": "f", "limitations": "l"}})");
  entry["message"] = message;
  entry["triggers"] = {trigger};
  entry["check"] = {{"family", family}, {"params", nlohmann::json::parse(params)}};
  const std::string text = entry.dump();
  return engine::Catalog::parse({{"family_rule.json", text}});
}

inline engine::Linter family_linter(const engine::Catalog& catalog) {
  engine::Settings settings;
  settings.selection.select = {"TM999"};
  settings.unsafe_fixes = true;
  return engine::Linter(catalog, checks::builtin_registry(), settings);
}

inline std::vector<std::string> family_messages(const engine::Catalog& catalog, const std::string& source) {
  std::vector<std::string> out;
  for (const Diagnostic& diagnostic : family_linter(catalog).lint(SourceFile("t.py", source, Language::Python))) {
    out.push_back(diagnostic.message);
  }
  return out;
}

inline std::string family_fixed(const engine::Catalog& catalog, const std::string& source) {
  return engine::fix_file(family_linter(catalog), SourceFile("t.py", source, Language::Python)).text;
}

}  // namespace torchmigrate::testing
