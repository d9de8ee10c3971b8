// SPDX-License-Identifier: MIT
// The numbers a migration is planned from, computed once for every format that shows them (the
// text summary, Markdown, the HTML report): how much was checked, how urgent the findings are
// and how much of the work the fixer does.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/output/report.hpp"

namespace torchmigrate::output {

// How soon a finding must be dealt with: the rule's catalog `impact` (breaks, silent change,
// deprecated, build); Other holds the tooling rules (TM0xx) and file problems (TM9xx).
enum class Urgency { Breaks, Silent, Deprecated, Build, Other };
inline constexpr size_t kUrgencyCount = 5;

// Of a catalog rule; nullptr (not a rule of the catalog) is Other.
Urgency urgency_of(const engine::RuleSpec* rule);
// "breaks on upgrade", "silent change", "deprecated", "build", "other"
std::string_view urgency_label(Urgency urgency);
// "breaks", "silent", "deprecated", "build", "other": ids and CSS classes
std::string_view urgency_id(Urgency urgency);

// Who does the work: `--fix` alone (a safe fix), `--unsafe-fixes` after review, or a person.
// Policies and the project's torch range count (a fix its range rules out is manual).
enum class FixKind { Safe, Unsafe, Manual };
inline constexpr size_t kFixKindCount = 3;

FixKind fix_kind(const Diagnostic& diagnostic, const engine::Settings& settings);
// "--fix", "--unsafe-fixes", "manual"
std::string_view fix_kind_label(FixKind kind);
// "safe", "unsafe", "manual"
std::string_view fix_kind_id(FixKind kind);

struct Headline {
  size_t files_checked = 0;  // the run's files; at least those with findings
  size_t files_with_findings = 0;
  size_t projects = 0;
  size_t findings = 0;
  std::array<size_t, 3> by_severity{};  // Severity order: error, warning, info
  std::array<size_t, kUrgencyCount> by_urgency{};
  std::array<size_t, kFixKindCount> by_fix_kind{};
  // With the run's own settings: what `--fix` as run now would fix, and the unsafe fixes it
  // leaves until `--unsafe-fixes` (zero when the run already enables them).
  size_t fixable_now = 0;
  size_t unsafe_hidden = 0;
  size_t fixed = 0;  // applied by this run's --fix

  [[nodiscard]] size_t urgency(Urgency u) const { return by_urgency[static_cast<size_t>(u)]; }
  [[nodiscard]] size_t fix(FixKind kind) const { return by_fix_kind[static_cast<size_t>(kind)]; }
};

Headline compute_headline(const Report& report);

// One number of the headline as every format shows it.
struct HeadlineItem {
  std::string group;  // "scope", "urgency", "work"
  std::string id;     // "files", "urgency-breaks", "fix-safe"...: stable, for HTML ids and tests
  std::string label;  // "files checked"
  size_t value = 0;
};
// The headline's numbers in the order they are shown; "other" urgency and "fixed by this run"
// only when nonzero.
std::vector<HeadlineItem> headline_items(const Headline& headline);

// "1 file" / "2 files"
std::string plural(size_t count, std::string_view noun);

}  // namespace torchmigrate::output
