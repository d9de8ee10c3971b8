// SPDX-License-Identifier: MIT
// `torchmigrate rule CODE` (one rule's docs) and `torchmigrate rules` (the table of all rules).
#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/engine/catalog.hpp"

namespace torchmigrate::cli {
namespace {

std::string fix_label(const engine::RuleSpec& rule) {
  if (!rule.fix_applicability) return "none";
  std::string label(to_string(*rule.fix_applicability));
  if (rule.fix_compat == Compat::Torch28Plus) label += " (2.8+)";
  if (rule.fix_policies) label += ", keep-old/adopt-new";
  return label;
}

void print_code_block(const std::string& code, std::ostream& out) {
  out << "```python\n" << code << (code.ends_with('\n') ? "" : "\n") << "```\n";
}

}  // namespace

int run_rule(const std::string& code) {
  const engine::RuleSpec* rule = engine::Catalog::builtin().find_by_code_or_name(code);
  if (rule == nullptr) {
    std::cerr << "torchmigrate: error: unknown rule `" << code << "`; `torchmigrate rules` lists them\n";
    return kExitUsage;
  }
  std::ostream& out = std::cout;
  out << "# " << rule->name << " (" << rule->code << ")\n\n";
  out << "Severity: " << to_string(rule->severity) << ". Since torch " << rule->since;
  if (!rule->removed_in.empty()) out << ", removed in " << rule->removed_in;
  out << ". Confidence: " << rule->confidence << ". Fix: " << fix_label(*rule) << ".";
  if (!rule->default_enabled) out << " Off by default (enable with `--extend-select " << rule->code << "`).";
  out << "\n\n## What it does\n" << rule->docs.what << "\n\n## Why is this bad?\n" << rule->docs.why << "\n\n";
  out << "## Example\n";
  print_code_block(rule->docs.before, out);
  out << "\nUse instead:\n";
  print_code_block(rule->docs.after, out);
  if (!rule->docs.after_adopt_new.empty()) {
    out << "\nOr, adopting the 2.8 behaviour (`--policy " << rule->code << "=adopt-new`):\n";
    print_code_block(rule->docs.after_adopt_new, out);
  }
  out << "\n## Fix safety\n" << rule->docs.fix_safety << "\n\n## Limitations\n" << rule->docs.limitations << "\n";
  out << "\n## References\n";
  for (const std::string& reference : rule->references) {
    out << "- " << reference << ": https://github.com/pytorch/pytorch/pull/" << reference.substr(reference.find('#') + 1)
        << "\n";
  }
  return kExitClean;
}

int run_rules(const std::string& format) {
  const engine::Catalog& catalog = engine::Catalog::builtin();
  if (format == "json") {
    nlohmann::json rules = nlohmann::json::array();
    for (const engine::RuleSpec& rule : catalog.rules()) {
      rules.push_back({{"code", rule.code},
                       {"name", rule.name},
                       {"summary", rule.summary},
                       {"severity", to_string(rule.severity)},
                       {"default_enabled", rule.default_enabled},
                       {"fix", fix_label(rule)}});
    }
    std::cout << rules.dump(2) << '\n';
    return kExitClean;
  }
  size_t name_width = 4;
  for (const engine::RuleSpec& rule : catalog.rules()) name_width = std::max(name_width, rule.name.size());
  std::cout << std::left << std::setw(7) << "CODE" << std::setw(static_cast<int>(name_width) + 2) << "NAME"
            << std::setw(9) << "SEVERITY" << std::setw(9) << "DEFAULT" << std::setw(34) << "FIX" << "SUMMARY\n";
  for (const engine::RuleSpec& rule : catalog.rules()) {
    std::cout << std::left << std::setw(7) << rule.code << std::setw(static_cast<int>(name_width) + 2) << rule.name
              << std::setw(9) << to_string(rule.severity) << std::setw(9) << (rule.default_enabled ? "on" : "off")
              << std::setw(34) << fix_label(rule) << rule.summary << '\n';
  }
  return kExitClean;
}

}  // namespace torchmigrate::cli
