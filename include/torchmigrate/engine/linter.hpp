// SPDX-License-Identifier: MIT
// Lints one file: prefilter by trigger words (prefilter.hpp), parse once, build the semantic model, walk the
// tree once dispatching each node to the checks that asked for its kind.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/cancellation.hpp"
#include "torchmigrate/engine/catalog.hpp"
#include "torchmigrate/engine/prefilter.hpp"
#include "torchmigrate/engine/python_check.hpp"
#include "torchmigrate/engine/settings.hpp"
#include "torchmigrate/engine/suppressions.hpp"

namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

class Linter {
 public:
  // Throws CatalogError when an enabled rule names an unknown check family or bad params.
  Linter(const Catalog& catalog, const CheckRegistry& registry, Settings settings);

  // Findings sorted by position then code; never throws for bad input.
  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file) const;
  // The same for a Python file whose tree is already parsed from exactly `file.text()` (an
  // editor keeps the tree and re-parses incrementally); other languages ignore `tree`. When
  // `stop` says yes during the work, throws LintCancelled.
  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const python::SyntaxTree& tree,
                                             const StopRequested& stop = {}) const;
  [[nodiscard]] const Settings& settings() const { return settings_; }
  [[nodiscard]] const Catalog& catalog() const { return catalog_; }
  [[nodiscard]] const std::vector<const RuleSpec*>& enabled_rules() const { return python_rules_; }

 private:
  [[nodiscard]] std::vector<Diagnostic> lint_python(const SourceFile& file, const python::SyntaxTree* parsed,
                                                    const StopRequested& stop = {}) const;
  // The notebook's code cells as one Python module, findings mapped back into the JSON bytes
  // (src/engine/notebook_lint.cpp).
  [[nodiscard]] std::vector<Diagnostic> lint_notebook(const SourceFile& file) const;
  [[nodiscard]] std::vector<Diagnostic> lint_other(const SourceFile& file, RuleLanguage language) const;
  // Which of `rules` can fire on `text`, then whether a suppression comment may occur.
  [[nodiscard]] std::vector<bool> candidates(const std::vector<const RuleSpec*>& rules, const Prefilter& prefilter,
                                             std::string_view text) const;
  void finish_suppressions(const SourceFile& file, Suppressions& suppressions, std::vector<Diagnostic>& diagnostics) const;

  const Catalog& catalog_;
  const CheckRegistry& registry_;
  Settings settings_;
  std::vector<const RuleSpec*> python_rules_;
  std::vector<const RuleSpec*> cxx_rules_;
  std::vector<const RuleSpec*> build_rules_;
  const RuleSpec* unused_suppression_rule_ = nullptr;
  // One per language, over its rules then the suppression markers (built in the constructor).
  std::optional<Prefilter> python_prefilter_, cxx_prefilter_, build_prefilter_;
};

// The catalog family of TM001, which the linter implements itself.
inline constexpr const char* kUnusedSuppressionFamily = "unused-suppression";

void sort_diagnostics(std::vector<Diagnostic>& diagnostics);

}  // namespace torchmigrate::engine
