// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/linter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>

#include "torchmigrate/engine/catalog/internal_codes.hpp"

namespace torchmigrate::engine {
namespace {

// A file past the size budget gets one note and no parse (minutes of work and gigabytes for a
// generated file that no one will migrate by hand).
std::optional<Diagnostic> over_budget(const SourceFile& file, const Settings& settings) {
  if (settings.max_file_bytes == 0 || file.text().size() <= settings.max_file_bytes) return std::nullopt;
  Diagnostic diagnostic;
  diagnostic.code = kIoErrorCode;
  diagnostic.severity = Severity::Info;
  diagnostic.message = fmt::format(
      "Skipped: {:.1f} MB is over the size budget of {} MB for one file; not checked (raise `max-file-size-mb`, "
      "0 for no limit)",
      static_cast<double>(file.text().size()) / (1 << 20), settings.max_file_bytes >> 20);
  return diagnostic;
}

}  // namespace

void sort_diagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.code < b.code;
  });
}

Linter::Linter(const Catalog& catalog, const CheckRegistry& registry, Settings settings)
    : environment_(catalog, registry, std::move(settings)) {
  // The fronts, in the order their findings are merged. A new front: one file in
  // src/engine/lint/fronts/ and one line here.
  fronts_.push_back(make_python_front(environment_));
  fronts_.push_back(make_notebook_front(*fronts_.front()));
  fronts_.push_back(make_cxx_front(environment_));
  fronts_.push_back(make_build_file_front(environment_));

  for (const RuleSpec& catalog_rule : environment_.catalog().rules()) {
    // TM001 looks at the suppressions of every language; the fronts run it together.
    if (!environment_.settings().selection.enabled(catalog_rule) ||
        catalog_rule.check_family == kUnusedSuppressionFamily)
      continue;
    // As a later release changes the rule, when the project's range reaches that release.
    const RuleSpec& rule = catalog_rule.reaching(environment_.settings().newest_torch());
    // The project's place on the release train decides whether the rule concerns it at all.
    if (!environment_.standing(rule).reported) continue;
    // The first front of the rule's language runs it (a notebook borrows the Python front's).
    for (const auto& front : fronts_) {
      if (front->rule_language() != rule.language) continue;
      front->add_rule(rule);
      break;
    }
  }
  for (const auto& front : fronts_) front->ready();
}

Linter::~Linter() = default;

std::vector<Diagnostic> Linter::lint(const SourceFile& file, const LintInput& input) const {
  std::vector<Diagnostic> diagnostics;
  if (auto note = over_budget(file, environment_.settings())) {
    diagnostics.push_back(std::move(*note));
    drop_deselected_file_problems(diagnostics, environment_.settings().selection);
    return diagnostics;
  }
  size_t fronts = 0;
  for (const auto& front : fronts_) {
    if (!front->reads(file)) continue;
    std::vector<Diagnostic> found = front->lint(file, input);
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    ++fronts;
  }
  if (fronts > 1) sort_diagnostics(diagnostics);
  drop_deselected_file_problems(diagnostics, environment_.settings().selection);
  return diagnostics;
}

std::vector<Diagnostic> Linter::lint(const SourceFile& file) const { return lint(file, LintInput{}); }

std::vector<Diagnostic> Linter::lint(const SourceFile& file, const python::SyntaxTree& tree, const StopRequested& stop,
                                     LintMemo* memo) const {
  bool python = file.language() == Language::Python;
  return lint(file, LintInput{python ? &tree : nullptr, stop, python ? memo : nullptr});
}

FactsRead Linter::facts_read(const SourceFile& file, bool any_text) const {
  FactsRead read;
  for (const auto& front : fronts_) {
    if (front->reads(file)) read |= front->facts_read(file, any_text);
  }
  return read;
}

size_t Linter::syntax_errors(const SourceFile& file) const {
  size_t errors = 0;
  for (const auto& front : fronts_) {
    if (front->reads(file)) errors += front->syntax_errors(file);
  }
  return errors;
}

}  // namespace torchmigrate::engine
