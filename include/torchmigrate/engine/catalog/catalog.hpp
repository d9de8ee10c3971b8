// SPDX-License-Identifier: MIT
// The rule catalog: every rule's identity, message, fix safety and docs, read from the JSON
// files in rules/ (embedded in the binary at build time) into plain structs.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/fix.hpp"

namespace torchmigrate::engine {

class CatalogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class RuleLanguage { Python, Cxx, Build };

// What a rule is about, which decides what counts as compatibility code for it: an API that went
// away (removed, renamed, deprecated) is handled by code that only runs on older torch; a changed
// default is handled by any branch a version test separates; build rules have no Python guards.
enum class RuleKind { Removed, Renamed, ChangedDefault, Deprecated, Build };

std::string_view to_string(RuleKind kind);

// What a finding means for the upgrade, for reports and baselines. Breaking findings are never
// recorded in a baseline: a baseline must not hide code that fails on the new release.
enum class RuleImpact { Breaks, SilentChange, Deprecated, Build, Tooling };

std::string_view to_string(RuleImpact impact);

// How a rule's triggers are looked for in a file's bytes (see prefilter.hpp).
enum class TriggerMatch {
  Word,       // whole identifier words: the default
  Substring,  // anywhere, e.g. a build variable passed as `-DNAME=...`
  AnyCase,    // anywhere, ignoring ASCII case (`# NoQA`)
};

// The release pair a rule belongs to: code written for `from` that changes meaning on `to`.
struct RuleRelease {
  TorchVersion from;
  TorchVersion to;
};

// Attribute names whose presence tells old torch from new for this rule: `hasattr(obj, "x")` or
// `getattr(obj, "x", None)` on a torch object counts as a version test only with one of them.
struct CompatAttributes {
  std::vector<std::string> old_names;  // exist before `release.to`, gone from it on
  std::vector<std::string> new_names;  // exist from `release.to` on
};

struct RuleDocs {
  std::string what, why, before, after, after_adopt_new, fix_safety, limitations;
  // The file name the examples are written as (decides their language and, for build files,
  // their format): "example.py" / "example.cpp" unless the entry names one; build rules must.
  std::string example_file;
};

// A rule's docs, read on first use: the built-in catalog keeps them as JSON text until a report,
// the editor or `torchmigrate rule` asks, since they are most of the catalog's bytes and a check
// run never reads them. Thread-safe.
class LazyDocs {
 public:
  explicit LazyDocs(RuleDocs docs);
  LazyDocs(std::string_view json, std::string origin, RuleLanguage language);
  [[nodiscard]] const RuleDocs& get() const;

 private:
  mutable std::once_flag once_;
  mutable RuleDocs docs_;
  std::string_view json_;  // empty once read
  std::string origin_;
  RuleLanguage language_ = RuleLanguage::Python;
};

struct RuleSpec {
  std::string code;
  std::string name;
  std::string summary;
  std::string message;  // template with {placeholders}
  Severity severity = Severity::Warning;
  bool default_enabled = true;
  std::string since;       // the release of the change, as written ("2.8")
  std::string removed_in;  // a deprecation's removal release, or ""
  // The same, as releases: what rule_lifecycle.hpp decides applicability from.
  TorchVersion since_release;
  std::optional<TorchVersion> removed_release;
  // A later rule that reports the same calls instead, for targets from `from` on (TM302's
  // legacy-exporter default is TM207's dynamo default once the target is 2.9).
  struct Successor {
    std::string code;
    TorchVersion from;
  };
  std::optional<Successor> superseded;
  std::string confidence;
  std::vector<std::string> references;  // "pytorch#N" (a pull request) or "pytorch-issue#N"
  RuleKind kind = RuleKind::Removed;
  RuleImpact impact = RuleImpact::Breaks;
  RuleRelease release;
  RuleLanguage language = RuleLanguage::Python;
  // The rule can fire only where one of `triggers` and one of every `trigger_groups` list occur.
  std::vector<std::string> triggers;
  std::vector<std::vector<std::string>> trigger_groups;
  TriggerMatch trigger_match = TriggerMatch::Word;
  // Spellings of the replacement that make a try/except around a use compatibility code.
  std::vector<std::string> compat_markers;
  CompatAttributes compat_attributes;
  std::string check_family;
  // The catalog's `check.params` object, shared by the copies of a spec; null: none given (read as
  // an empty object). A pointer keeps nlohmann/json.hpp out of every file that includes this one.
  std::shared_ptr<const nlohmann::json> check_params;
  std::optional<Applicability> fix_applicability;  // nullopt: the rule has no fix
  FixRequirements fix_requirements;  // the catalog's `fix.requires`
  bool fix_policies = false;
  std::shared_ptr<const LazyDocs> lazy_docs;
  [[nodiscard]] const RuleDocs& docs() const { return lazy_docs->get(); }

  // How later releases change the rule (the catalog's `targets`): copies of it with another
  // message, severity, fix or check parameters, each from its release on, oldest first.
  std::vector<std::shared_ptr<const RuleSpec>> variants;
  std::optional<TorchVersion> variant_from;  // set on a variant: the release it starts at
  // The rule as it reads for a project whose supported range reaches `newest` (its target, or a
  // newer pinned maximum): the latest variant starting at or before it, else the rule itself.
  [[nodiscard]] const RuleSpec& reaching(TorchVersion newest) const;

  // Fills {name} placeholders of the message template.
  [[nodiscard]] std::string format_message(const std::map<std::string, std::string>& values) const;
};

// The GitHub address of a catalog reference: a pull request or an issue of pytorch/pytorch.
std::string reference_url(std::string_view reference);
// The file of the rule's page in docs/rules: "TM101-export-for-inference-removed.md".
std::string rule_docs_file(const RuleSpec& rule);
// The address of the rule's published page: the build's -DTORCHMIGRATE_RULE_DOCS_URL (where
// docs/rules is served) followed by rule_docs_file; empty when the build sets none. Editors link
// the rule code to it and SARIF's helpUri names it, never a PyTorch pull request.
std::string rule_docs_url(const RuleSpec& rule);

// Pieces of a rule's docs that every renderer (`torchmigrate rule` and docs/rules, SARIF's help,
// the HTML report, the editor's hover) words the same way. Here, not in the output layer, because
// the editor's hover (lsp) may not include output.

// The rule's fix in a few words: "none", or its applicability and what the fixed code needs
// ("safe (needs torch>=2.2)"), then ", keep-old/adopt-new" for a fix with that choice when
// `with_policies` (SARIF's `fix` property has always left the choice out).
std::string fix_label(const RuleSpec& rule, bool with_policies = true);
// The info string of a code block of the rule's examples by its language alone: "python",
// "cpp", or "" for build files.
std::string_view example_language(const RuleSpec& rule);
// A fenced Markdown code block with `language` as its info string, ending in a newline.
std::string markdown_code_block(std::string_view language, std::string_view code);
// What introduces the example that adopts the new default: "Or, adopting the 2.8 behaviour".
std::string adopt_new_lead(const RuleSpec& rule);
inline constexpr std::string_view kFixSafetyTitle = "Fix safety";
inline constexpr std::string_view kLimitationsTitle = "Limitations";

class Catalog {
 public:
  // Parses catalog entries; `origin` names each entry's source in error messages.
  static Catalog parse(const std::vector<std::pair<std::string, std::string_view>>& sources);
  // The catalog compiled into this binary.
  static const Catalog& builtin();

  [[nodiscard]] const std::vector<RuleSpec>& rules() const { return rules_; }
  // The release pair the catalog migrates across: its rules' oldest `from` and newest `to`.
  [[nodiscard]] const RuleRelease& release() const { return release_; }
  // The releases a project may upgrade to (`target-version`): every release after the oldest
  // `from` that a rule's `since`, `removed_in` or `targets` names, oldest first.
  [[nodiscard]] const std::vector<TorchVersion>& targets() const { return targets_; }
  // Reads a `target-version` value: one of targets() (MAJOR.MINOR; a patch is ignored) or
  // `latest`, the newest. Throws std::invalid_argument naming the allowed values.
  [[nodiscard]] TorchVersion parse_target(std::string_view text) const;
  [[nodiscard]] const RuleSpec* find(std::string_view code) const;
  // Rule for a code or a kebab-case name.
  [[nodiscard]] const RuleSpec* find_by_code_or_name(std::string_view code_or_name) const;

 private:
  static Catalog from_rules(std::vector<RuleSpec> rules);
  std::vector<RuleSpec> rules_;  // sorted by code
  RuleRelease release_;
  std::vector<TorchVersion> targets_;
};

// The built-in catalog's release pair as written in its rules ("2.7", "2.8"), known without
// parsing the catalog: for help texts and titles, which `--version` and start-up must not pay
// a catalog parse for. A test checks that it is Catalog::builtin().release().
struct ReleaseNames {
  std::string_view from, to;
  std::string_view first_to;  // the oldest release a rule migrates to: the default target
};
ReleaseNames builtin_release_names();

// The oldest torch a project supports when nothing says otherwise: the release the built-in
// catalog migrates from.
TorchVersion default_min_torch();

// The release a project upgrades to when nothing says otherwise (`target-version`): the first
// release after the built-in catalog's base, the one it was first built for.
TorchVersion default_target();

// Reads one entry; `docs_json`, when given, holds the entry's `docs` object (then absent from
// `entry`), read on first use.
RuleSpec parse_rule(const nlohmann::json& entry, const std::string& origin, std::string_view docs_json = {});

// Reads a `requires` object ({"torch": ">=2.8"}); `where` names it in errors. Checks with
// per-option fixes read their own `requires` through this too.
FixRequirements parse_fix_requirements(const nlohmann::json& object, const std::string& where);

}  // namespace torchmigrate::engine
