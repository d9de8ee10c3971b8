// SPDX-License-Identifier: MIT
// What a run is asked to do: which rules, which torch range, which fixes.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

using torchmigrate::TorchVersion;

// Ruff's selection model: select replaces the default set, extend-select adds, ignore removes;
// entries are codes or prefixes ("TM2", "TM10") or "ALL".
struct RuleSelection {
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  // The file's per-file-ignores: unlike `ignore`, they win over any selection, however specific.
  std::vector<std::string> file_ignore = {};

  [[nodiscard]] bool enabled(const RuleSpec& rule) const;
};

class Project;

struct Settings {
  RuleSelection selection;
  // The project's place on the release train (torch_range.hpp, rule_lifecycle.hpp): the oldest
  // and newest torch it supports (no newest: no upper bound pinned) and the release it upgrades to.
  // Settings made without a project (tests, a buffer with no file) describe a project pinned to
  // the catalog's base release and upgrading from it; a project's own pins replace both bounds.
  TorchVersion min_torch = default_min_torch();
  std::optional<TorchVersion> max_torch = default_min_torch();
  TorchVersion target = default_target();
  // False when nothing pins torch and nothing configures `min-torch`: min_torch is then only the
  // catalog's base, not a fact about the project, so no fix that depends on the range is safe.
  bool torch_range_known = true;
  std::map<std::string, FixPolicy> policies;  // by code; "ALL" sets the default
  bool unsafe_fixes = false;
  // Files larger than this are not parsed: one TM900 note instead (0: no limit). Parsing costs
  // about 2 s and 200 MB per MB of Python, so a generated 50 MB file would take minutes.
  static constexpr size_t kDefaultMaxFileBytes = size_t{4} << 20;
  size_t max_file_bytes = kDefaultMaxFileBytes;
  // Which rules may offer fixes (Ruff's `fixable`/`unfixable`): empty `fixable` means all; the
  // most specific selector wins, and on a tie `unfixable`.
  std::vector<std::string> fixable;
  std::vector<std::string> unfixable;
  // Ruff's `extend-fixable`: fixable on top of `fixable`, and against `unfixable` by specificity.
  std::vector<std::string> extend_fixable;
  // --ignore-noqa: suppression comments suppress nothing (and TM001 finds none unused).
  bool ignore_noqa = false;
  // The file's own project: its root and the facts gathered from its tree (lazily).
  std::shared_ptr<const Project> project;
  buildfiles::ExtraExtensions build_extensions;  // more build-file name endings (config)
  // Skip rules whose triggers a file lacks (prefilter.hpp). Off only to test that the prefilter
  // never drops a finding: every enabled rule then runs on every file, which is parsed.
  bool prefilter = true;
  // Directory of compile_commands.json for C/C++/CUDA files (`-p DIR`); empty: search upwards.
  std::string compile_database_dir;

  // The project's facts (project_facts.hpp); nothing is known for a file outside any project.
  // Asking gathers them all from the project's tree the first time.
  [[nodiscard]] const ProjectFacts& project_facts() const;
  template <class T>
  [[nodiscard]] const T& project_fact(ProjectFact<T> fact) const {
    return project_facts().get(fact);
  }
  [[nodiscard]] FixPolicy policy_for(std::string_view code) const;
  [[nodiscard]] bool fixable_rule(const RuleSpec& rule) const;
  // The newest release the fixed code must run on: the target, or a newer pinned maximum.
  [[nodiscard]] TorchVersion newest_torch() const { return max_torch && target < *max_torch ? *max_torch : target; }
  // The one place fix safety is derived: a fix whose requirement (`fix.requires`) is not met by
  // every release from the oldest supported torch to newest_torch() is unsafe: `--fix` leaves it
  // alone, `--unsafe-fixes` applies it knowing the fixed code breaks on some supported release.
  [[nodiscard]] Applicability effective(const Fix& fix) const;
  // Why `effective` made a fix unsafe ("needs torch >= 2.8; the project supports torch 2.7-2.8"),
  // or "" when its requirement is met.
  [[nodiscard]] std::string unmet_requirement(const Fix& fix) const;
};

// Throws std::invalid_argument naming the bad entry, for CLI and config errors.
void validate_selector(std::string_view selector, const Catalog& catalog);
// A selector as typed by a Ruff user: surrounding spaces dropped (`--select "TM201, TM202"`),
// and a code, prefix or `all` in any case made upper case (`tm201`); rule names stay as written.
std::string normalize_selector(std::string_view selector);
FixPolicy parse_policy(std::string_view value);

// Why validate_policy refused an entry. what() is worded to follow a caller's own prefix:
// "TM101 has no keep-old/adopt-new choice" for a code (UnknownRule, NoChoice), parse_policy's
// message for the value.
struct PolicyError : std::invalid_argument {
  enum class Problem { UnknownRule, NoChoice, InvalidValue };
  PolicyError(Problem kind, const std::string& what) : std::invalid_argument(what), problem(kind) {}
  Problem problem;
};

// One policy entry, CODE = keep-old|adopt-new, from --policy, a configuration's `policy` or the
// editor's options: CODE must be ALL (every rule) or a rule with a keep-old/adopt-new choice,
// checked before the value. Returns the policy; throws PolicyError.
FixPolicy validate_policy(std::string_view code, std::string_view value, const Catalog& catalog);

// The report formats, in the order help texts list them: what --output-format and a
// configuration's `output-format` accept. Here because the configuration is read below the
// output layer; output::Format has one enumerator per name, in this order.
inline constexpr std::array<std::string_view, 13> kOutputFormatNames = {
    "concise", "full",   "grouped", "pylint", "json",     "json-lines", "rdjson",
    "sarif",   "github", "gitlab",  "junit",  "markdown", "html"};
// The names as a list for error messages: "concise, full, ..., html".
std::string output_format_choices();

}  // namespace torchmigrate::engine
