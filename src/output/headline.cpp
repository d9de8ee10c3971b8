// SPDX-License-Identifier: MIT
#include "torchmigrate/output/headline.hpp"

#include <fmt/format.h>

namespace torchmigrate::output {

Urgency urgency_of(const engine::RuleSpec* rule) {
  if (rule == nullptr) return Urgency::Other;
  switch (rule->impact) {
    case engine::RuleImpact::Breaks: return Urgency::Breaks;
    case engine::RuleImpact::SilentChange: return Urgency::Silent;
    case engine::RuleImpact::Deprecated: return Urgency::Deprecated;
    case engine::RuleImpact::Build: return Urgency::Build;
    case engine::RuleImpact::Tooling: return Urgency::Other;
  }
  return Urgency::Other;
}

std::string_view urgency_label(Urgency urgency) {
  // The target release differs between projects and runs: the label names none.
  static constexpr std::string_view kLabels[] = {"breaks on upgrade", "silent change", "deprecated", "build", "other"};
  return kLabels[static_cast<size_t>(urgency)];
}

std::string_view urgency_id(Urgency urgency) {
  static constexpr std::string_view kIds[] = {"breaks", "silent", "deprecated", "build", "other"};
  return kIds[static_cast<size_t>(urgency)];
}

FixKind fix_kind(const Diagnostic& diagnostic, const engine::Settings& settings) {
  engine::Settings choice = settings;
  choice.unsafe_fixes = false;
  if (fixable(diagnostic, choice)) return FixKind::Safe;
  choice.unsafe_fixes = true;
  return fixable(diagnostic, choice) ? FixKind::Unsafe : FixKind::Manual;
}

std::string_view fix_kind_label(FixKind kind) {
  static constexpr std::string_view kLabels[] = {"--fix", "--unsafe-fixes", "manual"};
  return kLabels[static_cast<size_t>(kind)];
}

std::string_view fix_kind_id(FixKind kind) {
  static constexpr std::string_view kIds[] = {"safe", "unsafe", "manual"};
  return kIds[static_cast<size_t>(kind)];
}

Headline compute_headline(const Report& report) {
  Headline headline;
  headline.projects = report.projects.size();
  headline.fixed = report.fixed > 0 ? static_cast<size_t>(report.fixed) : 0;
  for (const FileFindings& findings : report.files) {
    if (!findings.diagnostics.empty()) ++headline.files_with_findings;
    const engine::Settings& settings = report.settings_for(findings);
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      ++headline.findings;
      ++headline.by_severity[static_cast<size_t>(diagnostic.severity)];
      ++headline.by_urgency[static_cast<size_t>(urgency_of(report.rule(diagnostic.code)))];
      FixKind kind = fix_kind(diagnostic, settings);
      ++headline.by_fix_kind[static_cast<size_t>(kind)];
      if (fixable(diagnostic, settings)) {
        ++headline.fixable_now;
      } else if (kind != FixKind::Manual) {
        ++headline.unsafe_hidden;
      }
    }
  }
  headline.files_checked = std::max(report.files_checked, headline.files_with_findings);
  return headline;
}

std::vector<HeadlineItem> headline_items(const Headline& headline) {
  std::vector<HeadlineItem> items{
      {"scope", "files", "files checked", headline.files_checked},
      {"scope", "files-with-findings", "files with findings", headline.files_with_findings},
      {"scope", "projects", "projects", headline.projects},
      {"scope", "findings", "findings", headline.findings},
  };
  for (size_t u = 0; u < kUrgencyCount; ++u) {
    auto urgency = static_cast<Urgency>(u);
    if (urgency == Urgency::Other && headline.urgency(urgency) == 0) continue;
    items.push_back({"urgency", fmt::format("urgency-{}", urgency_id(urgency)), std::string(urgency_label(urgency)),
                     headline.urgency(urgency)});
  }
  items.push_back({"work", "fix-safe", "fixed automatically by --fix", headline.fix(FixKind::Safe)});
  items.push_back({"work", "fix-unsafe", "fixable with --unsafe-fixes, after review", headline.fix(FixKind::Unsafe)});
  items.push_back({"work", "fix-manual", "manual", headline.fix(FixKind::Manual)});
  if (headline.fixed > 0) items.push_back({"work", "fixed", "fixed by this run", headline.fixed});
  return items;
}

std::string plural(size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

}  // namespace torchmigrate::output
