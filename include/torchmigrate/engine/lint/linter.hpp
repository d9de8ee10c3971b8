// SPDX-License-Identifier: MIT
// Lints one file: hands it to the fronts that read it (front.hpp, src/engine/lint/fronts/), which
// prefilter by trigger words, parse once and run their checks.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/cancellation.hpp"
#include "torchmigrate/engine/lint/front.hpp"
#include "torchmigrate/engine/lint/prefilter.hpp"
#include "torchmigrate/engine/lint/python_check.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"

namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

class Linter {
 public:
  // Throws CatalogError when an enabled rule names an unknown check family or bad params.
  Linter(const Catalog& catalog, const CheckRegistry& registry, Settings settings);
  ~Linter();
  // The fronts keep references into the linter.
  Linter(const Linter&) = delete;
  Linter& operator=(const Linter&) = delete;

  // Findings sorted by position then code; never throws for bad input.
  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file) const;
  // The same for a Python file whose tree is already parsed from exactly `file.text()` (an
  // editor keeps the tree and re-parses incrementally); other languages ignore `tree`. When
  // `stop` says yes during the work, throws LintCancelled. With `memo` (one per document, kept
  // between lints), an edit inside one statement re-checks that statement only.
  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const python::SyntaxTree& tree,
                                             const StopRequested& stop = {}, LintMemo* memo = nullptr) const;
  // Syntax errors of `file` as the fronts that read it count them; the fixer refuses a fix
  // that raises the count.
  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const;
  // The project facts the findings of `file` may depend on (Front::facts_read); with `any_text`,
  // only its name and language are looked at.
  [[nodiscard]] FactsRead facts_read(const SourceFile& file, bool any_text = false) const;
  [[nodiscard]] const Settings& settings() const { return environment_.settings(); }
  [[nodiscard]] const Catalog& catalog() const { return environment_.catalog(); }

 private:
  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const LintInput& input) const;

  LintEnvironment environment_;
  std::vector<std::unique_ptr<Front>> fronts_;
};

// The catalog family of TM001, which the linter implements itself.
inline constexpr const char* kUnusedSuppressionFamily = "unused-suppression";

void sort_diagnostics(std::vector<Diagnostic>& diagnostics);

}  // namespace torchmigrate::engine
