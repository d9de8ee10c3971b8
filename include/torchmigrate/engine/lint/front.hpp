// SPDX-License-Identifier: MIT
// A front reads one kind of file for the linter: which files are its own, the findings of its
// rules (prefiltered, suppressions and compatibility code applied), and how many syntax errors
// a text has, so the fixer can refuse a fix that adds one. The fronts live in src/engine/lint/fronts/
// and are listed once, in Linter's constructor.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/cancellation.hpp"
#include "torchmigrate/engine/lint/lint_memo.hpp"
#include "torchmigrate/engine/lint/prefilter.hpp"
#include "torchmigrate/engine/lint/python_check.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"

namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

// What every front shares: the catalog, the registry, the settings, and the work done on
// findings of any language (unused suppressions, unmet fix requirements, sorting).
class LintEnvironment {
 public:
  LintEnvironment(const Catalog& catalog, const CheckRegistry& registry, Settings settings);

  [[nodiscard]] const Catalog& catalog() const { return catalog_; }
  [[nodiscard]] const CheckRegistry& registry() const { return registry_; }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  // Where the rule stands for this linter's project (rule_lifecycle.hpp).
  [[nodiscard]] RuleStanding standing(const RuleSpec& rule) const;
  // TM001, which the fronts implement together; null when it is not enabled.
  [[nodiscard]] const RuleSpec* unused_suppression_rule() const { return unused_suppression_rule_; }
  // A prefilter over `rules`, then the suppression markers, then the marker of our own codes.
  // Linters that enable the same rules (one per project and configuration: dozens in a
  // monorepo) share it; its tables are most of a linter's memory.
  [[nodiscard]] std::shared_ptr<const Prefilter> prefilter(std::vector<const RuleSpec*> rules) const;
  // Builds the check of each of `rules` (of one language) once, which validates its parameters
  // (a bad configuration fails before any file is read), and gives what each reads of the
  // project's facts. Shared like prefilter(): a run builds one linter per project, all with the
  // same rules, and building every check was 5% of a warm cached run.
  [[nodiscard]] std::shared_ptr<const std::vector<FactsRead>> built_checks(const std::vector<const RuleSpec*>& rules,
                                                                           RuleLanguage language) const;
  // Which of `rules` can fire on `text`, then the two markers' flags (read them with the two
  // functions below).
  [[nodiscard]] std::vector<bool> candidates(size_t rules, const Prefilter& prefilter, std::string_view text,
                                             WordPlacesOf places_of) const;
  // From candidates(): a suppression comment may occur, so suppressions must be read.
  [[nodiscard]] static bool may_suppress(const std::vector<bool>& fires) { return fires[fires.size() - 2]; }
  // From candidates(): TM001 is enabled and a directive may name one of our codes (`TM...`); a
  // file with only `# noqa: E501` cannot get a TM001 finding, so it need not be parsed for it.
  [[nodiscard]] bool may_report_unused_suppressions(const std::vector<bool>& fires) const {
    return unused_suppression_rule_ != nullptr && may_suppress(fires) && fires.back();
  }
  // Applies suppressions, reports unused ones (TM001), explains unmet fix requirements, withholds
  // unfixable fixes and sorts.
  void finish(const SourceFile& file, Suppressions& suppressions, std::vector<Diagnostic>& diagnostics) const;

 private:
  void apply_suppressions(const SourceFile& file, Suppressions& suppressions,
                          std::vector<Diagnostic>& diagnostics) const;
  const Catalog& catalog_;
  const CheckRegistry& registry_;
  Settings settings_;
  const RuleSpec* unused_suppression_rule_ = nullptr;
  // Findings of these rules gain a note and, past a removal, the severity of an error.
  std::map<std::string, std::pair<std::string, bool>, std::less<>> standing_notes_;
  // Changed defaults whose keep-old fix would change what the code does today, and why.
  std::map<std::string, std::string, std::less<>> keep_old_caveats_;
};

// What a lint may bring besides the file: an editor's already parsed tree (Python only), a
// way to stop a lint that is no longer wanted, and what the document's previous lint left
// (read and replaced by the Python front; see lint_memo.hpp).
struct LintInput {
  const python::SyntaxTree* tree = nullptr;
  StopRequested stop;
  LintMemo* memo = nullptr;
};

class Front {
 public:
  virtual ~Front() = default;
  Front() = default;
  Front(const Front&) = delete;
  Front& operator=(const Front&) = delete;

  // The catalog's `language` of the rules this front runs (a notebook runs the Python rules).
  [[nodiscard]] virtual RuleLanguage rule_language() const = 0;
  // Whether `file` is this front's to read (setup.py is read by two).
  [[nodiscard]] virtual bool reads(const SourceFile& file) const = 0;
  // Takes one enabled rule of rule_language(); throws CatalogError when its family is unknown
  // or its params are wrong (building the check once validates them).
  virtual void add_rule(const RuleSpec& rule) = 0;
  // Called once after the last add_rule.
  virtual void ready() {}
  [[nodiscard]] virtual std::vector<Diagnostic> lint(const SourceFile& file, const LintInput& input) const = 0;
  // Syntax errors of `file` as this front reads it.
  [[nodiscard]] virtual size_t syntax_errors(const SourceFile& file) const = 0;
  // The project facts (project_facts.hpp) that the findings of `file` may depend on: those its
  // rules that can fire on its text read. With `any_text`, those any of its rules read.
  [[nodiscard]] virtual FactsRead facts_read(const SourceFile& /*file*/, bool /*any_text*/) const { return {}; }
};

std::unique_ptr<Front> make_python_front(const LintEnvironment& environment);
std::unique_ptr<Front> make_notebook_front(const Front& python);
std::unique_ptr<Front> make_cxx_front(const LintEnvironment& environment);
std::unique_ptr<Front> make_build_file_front(const LintEnvironment& environment);

}  // namespace torchmigrate::engine
