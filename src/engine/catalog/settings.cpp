// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/catalog/settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "torchmigrate/engine/catalog/internal_codes.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

namespace torchmigrate::engine {
namespace {

bool matches(std::string_view selector, const RuleSpec& rule) {
  if (selector == "ALL") return true;
  return rule.code.starts_with(selector) || rule.name == selector;
}

// The most specific selector wins, as in Ruff: `--ignore TM2 --select TM201` keeps TM201.
size_t best_match(const std::vector<std::string>& selectors, const RuleSpec& rule) {
  size_t best = 0;
  for (const std::string& selector : selectors) {
    if (matches(selector, rule)) best = std::max(best, selector == "ALL" ? size_t{1} : selector.size() + 1);
  }
  return best;
}

}  // namespace

bool RuleSelection::enabled(const RuleSpec& rule) const {
  if (best_match(file_ignore, rule) > 0) return false;
  size_t selected = select.empty() ? (rule.default_enabled ? 1 : 0) : best_match(select, rule);
  size_t extended = best_match(extend_select, rule);
  size_t ignored = best_match(ignore, rule);
  size_t chosen = std::max(selected, extended);
  // On a tie, ignore wins.
  return chosen > 0 && chosen > ignored;
}

const ProjectFacts& Settings::project_facts() const {
  static const ProjectFacts nothing_known;
  return project ? project->facts() : nothing_known;
}

FixPolicy Settings::policy_for(std::string_view code) const {
  if (auto it = policies.find(std::string(code)); it != policies.end()) return it->second;
  if (auto it = policies.find("ALL"); it != policies.end()) return it->second;
  return FixPolicy::KeepOld;
}

bool Settings::fixable_rule(const RuleSpec& rule) const {
  size_t allowed = std::max(fixable.empty() ? 1 : best_match(fixable, rule), best_match(extend_fixable, rule));
  return allowed > 0 && allowed > best_match(unfixable, rule);
}

Applicability Settings::effective(const Fix& fix) const {
  if (fix.applicability == Applicability::Safe && !unmet_requirement(fix).empty()) return Applicability::Unsafe;
  return fix.applicability;
}

std::string Settings::unmet_requirement(const Fix& fix) const {
  // As Ruff assumes the oldest Python without a `requires-python`: an unknown range may reach
  // any release, so a fix that needs some releases, or keeps an old default, is not safe.
  if (!torch_range_known && (!fix.requirements.empty() || fix.policy == FixPolicy::KeepOld)) {
    std::string needs = "keeps the old default";
    if (fix.requirements.torch) {
      needs = fmt::format("needs torch >= {}", fix.requirements.torch->str());
    } else if (fix.requirements.below) {
      needs = fmt::format("needs torch < {}", fix.requirements.below->str());
    }
    return needs + "; no torch pin found, so the supported range is unknown: pin torch or set `min-torch`";
  }
  TorchVersion newest = newest_torch();
  bool too_old = fix.requirements.torch && min_torch < *fix.requirements.torch;
  bool too_new = fix.requirements.below && !(newest < *fix.requirements.below);
  if (!too_old && !too_new) return {};
  std::string supported = min_torch < newest ? fmt::format("{}-{}", min_torch.str(), newest.str()) : min_torch.str();
  if (too_old)
    return fmt::format("needs torch >= {}; the project supports torch {}", fix.requirements.torch->str(), supported);
  return fmt::format("needs torch < {}; the project supports torch {}", fix.requirements.below->str(), supported);
}

void validate_selector(std::string_view selector, const Catalog& catalog) {
  if (selector == "ALL") return;
  for (const RuleSpec& rule : catalog.rules()) {
    if (matches(selector, rule)) return;
  }
  for (const RuleSpec& rule : internal_rules()) {
    if (matches(selector, rule)) return;
  }
  // The example code and prefix come from the catalog, which names every rule.
  std::string examples = "a rule code";
  if (!catalog.rules().empty()) {
    const std::string& code = catalog.rules().back().code;
    examples = "a code such as " + code + ", a prefix such as " + code.substr(0, 3);
  }
  throw std::invalid_argument("unknown rule selector `" + std::string(selector) + "`; use " + examples +
                              ", a rule name, or ALL (`torchmigrate rules` lists them)");
}

std::string normalize_selector(std::string_view selector) {
  size_t begin = selector.find_first_not_of(" \t");
  size_t end = selector.find_last_not_of(" \t");
  std::string out =
      begin == std::string_view::npos ? std::string() : std::string(selector.substr(begin, end - begin + 1));
  // Letters then digits, as every code and prefix is: `tm2`, `Tm201`, `all`.
  size_t letters = 0;
  while (letters < out.size() && std::isalpha(static_cast<unsigned char>(out[letters]))) ++letters;
  bool code_like = letters > 0 && std::all_of(out.begin() + static_cast<std::ptrdiff_t>(letters), out.end(),
                                              [](unsigned char c) { return std::isdigit(c); });
  if (!code_like) return out;
  std::string upper = out;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  return upper.starts_with("TM") || upper == "ALL" ? upper : out;
}

FixPolicy parse_policy(std::string_view value) {
  if (value == "keep-old") return FixPolicy::KeepOld;
  if (value == "adopt-new") return FixPolicy::AdoptNew;
  throw std::invalid_argument("invalid policy `" + std::string(value) + "`; expected keep-old or adopt-new");
}

FixPolicy validate_policy(std::string_view code, std::string_view value, const Catalog& catalog) {
  if (code != "ALL") {
    const RuleSpec* rule = catalog.find(code);
    if (rule == nullptr || !rule->fix_policies) {
      throw PolicyError(rule == nullptr ? PolicyError::Problem::UnknownRule : PolicyError::Problem::NoChoice,
                        std::string(code) + " has no keep-old/adopt-new choice");
    }
  }
  try {
    return parse_policy(value);
  } catch (const std::invalid_argument& error) {
    throw PolicyError(PolicyError::Problem::InvalidValue, error.what());
  }
}

std::string output_format_choices() {
  std::string choices;
  for (std::string_view name : kOutputFormatNames) {
    if (!choices.empty()) choices += ", ";
    choices += name;
  }
  return choices;
}

}  // namespace torchmigrate::engine
