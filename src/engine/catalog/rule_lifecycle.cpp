// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"

namespace torchmigrate::engine {
namespace {

// When the rule is reported, from its kind and releases.
std::string reach_text(const RuleSpec& rule) {
  const std::string since = rule.since_release.str();
  switch (rule.kind) {
    case RuleKind::ChangedDefault:
      return "Reported when the project's supported range crosses torch " + since +
             ": its oldest supported torch is older than " + since + " and its target release is " + since +
             " or newer. A project whose oldest supported torch is " + since + " or newer has nothing to migrate.";
    case RuleKind::Deprecated: {
      std::string text = "Reported when the target release is torch " + since + " or newer";
      if (rule.removed_release) {
        text += "; as breaking (an error) when it is " + rule.removed_release->str() +
                " or newer, where the API is removed";
      }
      return text + ".";
    }
    case RuleKind::Removed:
    case RuleKind::Renamed:
    case RuleKind::Build: break;
  }
  std::string text = "Reported when the target release is torch " + since + " or newer, whatever the oldest supported torch";
  if (rule.impact != RuleImpact::Breaks) return text + ".";
  return text + "; when that is " + since +
         " or newer too, the message says the code already fails on every supported release.";
}

}  // namespace

RuleStanding standing_of(const RuleSpec& rule, TorchVersion min_torch, TorchVersion target) {
  RuleStanding standing;
  const TorchVersion since = rule.since_release;
  bool reached = !(target < since);
  switch (rule.kind) {
    case RuleKind::ChangedDefault:
      // A default that changed before the oldest supported release changes nothing for the
      // project: every release it supports already has the new one.
      standing.reported = min_torch < since && reached;
      break;
    case RuleKind::Deprecated:
      standing.reported = reached;
      standing.removal_reached = reached && rule.removed_release && !(target < *rule.removed_release);
      break;
    case RuleKind::Removed:
    case RuleKind::Renamed:
    case RuleKind::Build:
      standing.reported = reached;
      standing.already_fails = reached && !(min_torch < since) && rule.impact == RuleImpact::Breaks;
      break;
  }
  // From its successor's release on, the successor reports the same calls.
  if (rule.superseded && !(target < rule.superseded->from)) standing = RuleStanding();
  return standing;
}

std::string applicability_text(const RuleSpec& rule) {
  std::string text = reach_text(rule);
  if (rule.superseded) {
    text += " Not reported when the target release is torch " + rule.superseded->from.str() + " or newer, where " +
            rule.superseded->code + " covers the same code.";
  }
  return text;
}

std::string keep_old_caveat(const RuleSpec& rule, const std::optional<TorchVersion>& max_torch) {
  if (rule.kind != RuleKind::ChangedDefault || (max_torch && *max_torch < rule.since_release)) return {};
  const std::string since = rule.since_release.str();
  if (!max_torch)
    return "no upper bound below torch " + since + " is pinned, so the code may already run with its default";
  return "the project supports torch " + max_torch->str() + ", where the code already runs with the " + since +
         " default";
}

std::string standing_note(const RuleSpec& rule, const RuleStanding& standing, TorchVersion min_torch) {
  if (standing.removal_reached)
    return "; this breaks on the target release, torch " + rule.removed_release->str() + " or later";
  if (standing.already_fails) {
    return "; this already fails on every supported torch (the project supports torch >= " + min_torch.str() + ")";
  }
  return {};
}

}  // namespace torchmigrate::engine
