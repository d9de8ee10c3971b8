// SPDX-License-Identifier: MIT
// Where a rule stands for one project: decided in this one place from the rule's kind and
// lifecycle (`since`, `removed_in`) and the project's place on the release train (the oldest
// torch it supports and the release it upgrades to). Check, fix, cache, report and the
// language server all ask this; docs/configuration.md explains the model with examples.
#pragma once

#include <optional>
#include <string>

#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::engine {

struct RuleStanding {
  bool reported = false;
  // A removal the oldest supported torch is already past: the code fails on every release the
  // project supports, whatever the upgrade.
  bool already_fails = false;
  // A deprecation whose removal the target reaches: reported as breaking.
  bool removal_reached = false;
};

// - removed, renamed, build: reported when target >= since;
// - changed default: reported when min < since <= target (the supported range crosses it);
// - deprecated: reported when target >= since, breaking when target >= removed_in.
RuleStanding standing_of(const RuleSpec& rule, TorchVersion min_torch, TorchVersion target);

// What decides the rule's applicability, in one sentence, for `torchmigrate rule CODE` and the
// generated rule pages.
std::string applicability_text(const RuleSpec& rule);

// Why keeping a changed default's old value would change behaviour for this project, or "": a
// keep-old fix keeps what the code does today only while no supported release has the new
// default, i.e. while the project pins torch below `since`. Otherwise (no upper bound, or one at
// or past `since`) the code may already run with the new default, and pinning the old one
// changes it there.
std::string keep_old_caveat(const RuleSpec& rule, const std::optional<TorchVersion>& max_torch);

// What a finding's message gains from its standing: "" or "; ..." to append.
std::string standing_note(const RuleSpec& rule, const RuleStanding& standing, TorchVersion min_torch);

}  // namespace torchmigrate::engine
