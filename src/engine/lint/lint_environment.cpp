// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"
#include "torchmigrate/engine/lint/front.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace torchmigrate::engine {
namespace {

// What marks a suppression comment for suppressions.cpp (`# noqa` in any case, `NOLINT...`):
// TM001's catalog triggers, or these when a catalog has no TM001.
const RuleSpec& suppression_markers(const Catalog& catalog) {
  for (const RuleSpec& rule : catalog.rules()) {
    if (rule.check_family == kUnusedSuppressionFamily) return rule;
  }
  static const RuleSpec fallback = [] {
    RuleSpec rule;
    rule.triggers = {"noqa", "NOLINT"};
    rule.trigger_match = TriggerMatch::AnyCase;
    return rule;
  }();
  return fallback;
}

// TM001 reports only codes that start with `TM`, case as written (Suppressions::unused).
const RuleSpec& own_code_marker() {
  static const RuleSpec marker = [] {
    RuleSpec rule;
    rule.triggers = {"TM"};
    rule.trigger_match = TriggerMatch::Substring;
    return rule;
  }();
  return marker;
}

// The test hook of Settings::prefilter for whole runs of the command line.
bool prefilter_disabled_by_environment() {
  const char* value = std::getenv("TORCHMIGRATE_NO_PREFILTER");
  return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

// A fix that `Settings::effective` makes unsafe says why in its title, which every report and
// the editor's code actions show.
void explain_unmet_requirements(std::vector<Diagnostic>& diagnostics, const Settings& settings) {
  for (Diagnostic& diagnostic : diagnostics) {
    for (Fix& fix : diagnostic.fixes) {
      if (std::string why = settings.unmet_requirement(fix); !why.empty()) fix.title += " (" + why + ")";
    }
  }
}

// Of a fix's alternative spellings, the first whose requirements the project's range meets
// stays, else the first: the later release's spelling wins where an older one would be removed.
void keep_preferred_spellings(std::vector<Diagnostic>& diagnostics, const Settings& settings) {
  for (Diagnostic& diagnostic : diagnostics) {
    std::optional<size_t> first, met;
    for (size_t i = 0; i < diagnostic.fixes.size(); ++i) {
      const Fix& fix = diagnostic.fixes[i];
      if (!fix.alternative_spelling) continue;
      if (!first) first = i;
      if (!met && settings.unmet_requirement(fix).empty()) met = i;
    }
    if (!first) continue;
    std::vector<Fix> kept;
    for (size_t i = 0; i < diagnostic.fixes.size(); ++i) {
      if (!diagnostic.fixes[i].alternative_spelling || i == met.value_or(*first))
        kept.push_back(std::move(diagnostic.fixes[i]));
    }
    diagnostic.fixes = std::move(kept);
  }
}

// `unfixable` rules still report, but offer no fix: not to --fix, not as `[*]`, not in an editor.
void withhold_unfixable(std::vector<Diagnostic>& diagnostics, const Settings& settings, const Catalog& catalog) {
  if (settings.fixable.empty() && settings.unfixable.empty()) return;
  for (Diagnostic& diagnostic : diagnostics) {
    const RuleSpec* rule = catalog.find(diagnostic.code);
    if (rule != nullptr && !settings.fixable_rule(*rule)) diagnostic.fixes.clear();
  }
}

// TM001's fix for one suppression comment: remove it, or only the codes it does not need.
Fix unused_suppression_fix(const SourceFile& file, const SuppressionDirective& directive,
                           const std::vector<size_t>& unused_codes) {
  Fix fix;
  fix.applicability = Applicability::Safe;
  if (unused_codes.size() == directive.codes.size()) {
    // Remove the whole comment and the blank space before it.
    uint32_t start = directive.comment.start;
    uint32_t line_start = file.lines().line_start(file.lines().line_of(start));
    while (start > line_start && (file.text()[start - 1] == ' ' || file.text()[start - 1] == '\t')) --start;
    fix.title = "Remove unused suppression";
    fix.edits.push_back(Edit::remove({start, directive.comment.end}));
    return fix;
  }
  std::vector<std::string> kept;
  for (size_t i = 0; i < directive.codes.size(); ++i) {
    if (std::find(unused_codes.begin(), unused_codes.end(), i) == unused_codes.end())
      kept.push_back(directive.codes[i]);
  }
  std::string_view text = file.slice(directive.comment);
  bool cxx = text.starts_with("//");
  std::string list;
  for (const std::string& code : kept) list += (list.empty() ? "" : cxx ? "," : ", ") + code;
  size_t open = cxx ? text.find('(') : text.find(':', text.find("noqa"));
  size_t close = cxx ? text.find(')', open) : text.find_last_not_of(" \t") + 1;
  fix.title = "Remove unused codes from the suppression";
  fix.edits.push_back(Edit::replace({directive.comment.start + static_cast<uint32_t>(open) + 1,
                                     directive.comment.start + static_cast<uint32_t>(close)},
                                    cxx ? list : " " + list));
  return fix;
}

}  // namespace

LintEnvironment::LintEnvironment(const Catalog& catalog, const CheckRegistry& registry, Settings settings)
    : catalog_(catalog), registry_(registry), settings_(std::move(settings)) {
  if (prefilter_disabled_by_environment()) settings_.prefilter = false;
  for (const RuleSpec& rule : catalog_.rules()) {
    if (rule.check_family == kUnusedSuppressionFamily && settings_.selection.enabled(rule))
      unused_suppression_rule_ = &rule;
    RuleStanding standing = this->standing(rule);
    std::string note = standing_note(rule, standing, settings_.min_torch);
    if (!note.empty()) standing_notes_.emplace(rule.code, std::make_pair(std::move(note), standing.removal_reached));
    if (std::string caveat = keep_old_caveat(rule, settings_.max_torch); !caveat.empty() && rule.fix_policies) {
      keep_old_caveats_.emplace(rule.code, std::move(caveat));
    }
  }
}

RuleStanding LintEnvironment::standing(const RuleSpec& rule) const {
  return standing_of(rule, settings_.min_torch, settings_.target);
}

std::shared_ptr<const Prefilter> LintEnvironment::prefilter(std::vector<const RuleSpec*> rules) const {
  rules.push_back(&suppression_markers(catalog_));
  rules.push_back(&own_code_marker());
  // Held weakly: once the last linter with these rules is gone (an editor's configuration
  // changed), the tables go too.
  static std::mutex mutex;
  static std::map<std::vector<const RuleSpec*>, std::weak_ptr<const Prefilter>> shared;
  std::lock_guard lock(mutex);
  std::erase_if(shared, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<const Prefilter>& entry = shared[rules];
  std::shared_ptr<const Prefilter> prefilter = entry.lock();
  if (!prefilter) {
    prefilter = std::make_shared<const Prefilter>(rules);
    entry = prefilter;
  }
  return prefilter;
}

std::shared_ptr<const std::vector<FactsRead>> LintEnvironment::built_checks(const std::vector<const RuleSpec*>& rules,
                                                                            RuleLanguage language) const {
  bool python = language == RuleLanguage::Python;
  static std::mutex mutex;
  static std::map<std::pair<std::vector<const RuleSpec*>, const CheckRegistry*>,
                  std::weak_ptr<const std::vector<FactsRead>>>
      shared;
  {
    std::lock_guard lock(mutex);
    std::erase_if(shared, [](const auto& entry) { return entry.second.expired(); });
    if (auto found = shared.find({rules, &registry_}); found != shared.end()) {
      if (auto built = found->second.lock()) return built;
    }
  }
  // Built outside the lock: a check that throws leaves nothing behind.
  auto facts = std::make_shared<std::vector<FactsRead>>();
  for (const RuleSpec* rule : rules) {
    if (python) {
      facts->push_back((*registry_.python(rule->check_family))(*rule)->facts_read());
    } else {
      facts->push_back((*registry_.file(rule->check_family))(*rule)->facts_read());
    }
  }
  std::lock_guard lock(mutex);
  shared[{rules, &registry_}] = facts;
  return facts;
}

std::vector<bool> LintEnvironment::candidates(size_t rules, const Prefilter& prefilter, std::string_view text,
                                              WordPlacesOf places_of) const {
  if (!settings_.prefilter) return std::vector<bool>(rules + 2, true);
  return prefilter.candidates(text, places_of);
}

void LintEnvironment::finish(const SourceFile& file, Suppressions& suppressions,
                             std::vector<Diagnostic>& diagnostics) const {
  if (!standing_notes_.empty()) {
    for (Diagnostic& diagnostic : diagnostics) {
      auto it = standing_notes_.find(diagnostic.code);
      if (it == standing_notes_.end()) continue;
      diagnostic.message += it->second.first;
      if (it->second.second) diagnostic.severity = Severity::Error;
    }
  }
  keep_preferred_spellings(diagnostics, settings_);
  // A keep-old fix that would change behaviour on releases the project already runs is unsafe.
  for (Diagnostic& diagnostic : diagnostics) {
    auto caveat = keep_old_caveats_.find(diagnostic.code);
    if (caveat == keep_old_caveats_.end()) continue;
    for (Fix& fix : diagnostic.fixes) {
      if (fix.policy != FixPolicy::KeepOld || fix.applicability != Applicability::Safe) continue;
      fix.applicability = Applicability::Unsafe;
      fix.title += " (" + caveat->second + ")";
    }
  }
  explain_unmet_requirements(diagnostics, settings_);
  if (!settings_.ignore_noqa) apply_suppressions(file, suppressions, diagnostics);
  withhold_unfixable(diagnostics, settings_, catalog_);
  sort_diagnostics(diagnostics);
}

void LintEnvironment::apply_suppressions(const SourceFile& file, Suppressions& suppressions,
                                         std::vector<Diagnostic>& diagnostics) const {
  suppressions.apply(file, diagnostics);
  if (unused_suppression_rule_ != nullptr) {
    for (const auto& [directive, unused_codes] : suppressions.unused()) {
      std::string codes;
      for (size_t index : unused_codes) codes += (codes.empty() ? "`" : ", `") + directive->codes[index] + "`";
      Diagnostic& diagnostic = diagnostics.emplace_back();
      diagnostic.code = unused_suppression_rule_->code;
      diagnostic.severity = unused_suppression_rule_->severity;
      diagnostic.range = directive->comment;
      diagnostic.message = unused_suppression_rule_->format_message({{"codes", codes}});
      diagnostic.fixes.push_back(unused_suppression_fix(file, *directive, unused_codes));
    }
  }
}

}  // namespace torchmigrate::engine
