// SPDX-License-Identifier: MIT
// The notebook front, and the fixer's path for notebooks (fix the cells' Python, write the
// changed cells back).
#include "torchmigrate/engine/lint/front.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/lint/notebook_check.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "torchmigrate/notebook/notebook.hpp"
#include "torchmigrate/notebook/rewrite.hpp"
#include "torchmigrate/notebook/virtual_source.hpp"

namespace torchmigrate::engine {
namespace {

// A notebook read and turned into the Python module its code cells form.
struct NotebookModule {
  notebook::Notebook notebook;
  notebook::VirtualSource source;
};

std::optional<NotebookModule> read_module(const SourceFile& file, std::vector<Diagnostic>& problems) {
  notebook::ParseResult parsed = notebook::parse(file.text());
  if (!parsed.notebook) {
    Diagnostic& problem = problems.emplace_back();
    problem.code = kIoErrorCode;
    problem.message = "Malformed notebook: " + parsed.error + "; not checked";
    problem.severity = Severity::Error;
    return std::nullopt;
  }
  NotebookModule module{std::move(*parsed.notebook), {}};
  module.source = notebook::build_virtual_source(module.notebook);
  return module;
}

TextRange to_file(const NotebookModule& module, TextRange range) {
  return {notebook::file_offset(module.notebook, module.source, range.start),
          notebook::file_offset(module.notebook, module.source, range.end)};
}

// Findings of the virtual source, moved onto the notebook's bytes (edits too, so reports
// show where a fix lands; the fixer itself works on the virtual source).
void map_to_file(const NotebookModule& module, std::vector<Diagnostic>& diagnostics) {
  for (Diagnostic& diagnostic : diagnostics) {
    diagnostic.range = to_file(module, diagnostic.range);
    for (Fix& fix : diagnostic.fixes) {
      for (Edit& edit : fix.edits) edit.range = to_file(module, edit.range);
    }
  }
  sort_diagnostics(diagnostics);
}

// Notebooks: the code cells as one Python module, linted by the Python front, findings mapped
// back into the JSON bytes.
class NotebookFront final : public Front {
 public:
  explicit NotebookFront(const Front& python) : python_(python) {}

  [[nodiscard]] RuleLanguage rule_language() const override { return RuleLanguage::Python; }
  [[nodiscard]] bool reads(const SourceFile& file) const override { return file.language() == Language::Notebook; }
  // The Python front has the rules.
  void add_rule(const RuleSpec& /*rule*/) override {}

  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const LintInput& input) const override {
    std::vector<Diagnostic> diagnostics;
    std::optional<NotebookModule> module = read_module(file, diagnostics);
    if (!module) return diagnostics;
    diagnostics = python_.lint(SourceFile(file.path(), module->source.text, Language::Python), {nullptr, input.stop});
    map_to_file(*module, diagnostics);
    return diagnostics;
  }

  // The fixer works on the cells' Python (fix_notebook); here only the notebook's JSON counts.
  // The code cells' rules: the notebook's text holds every word of its cells.
  [[nodiscard]] FactsRead facts_read(const SourceFile& file, bool any_text) const override {
    return python_.facts_read(file, any_text);
  }

  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const override {
    return notebook::parse(file.text()).notebook ? 0 : 1;
  }

 private:
  const Front& python_;
};

}  // namespace

std::unique_ptr<Front> make_notebook_front(const Front& python) { return std::make_unique<NotebookFront>(python); }

FixOutcome fix_notebook(const Linter& linter, const SourceFile& file) {
  FixOutcome outcome;
  outcome.text = file.text();
  std::optional<NotebookModule> module = read_module(file, outcome.remaining);
  if (!module) return outcome;
  FixOutcome fixed = fix_file(linter, SourceFile(file.path(), module->source.text, Language::Python));
  // Problems name rules, not places: they point at the top of the notebook.
  for (Diagnostic& problem : fixed.problems) problem.range = {};
  outcome.problems = std::move(fixed.problems);
  outcome.hit_pass_limit = fixed.hit_pass_limit;
  if (fixed.rollback) {
    outcome.rollback = std::move(fixed.rollback);
    outcome.rollback->range = {};
  }
  if (fixed.text == module->source.text) {
    map_to_file(*module, fixed.remaining);
    outcome.remaining = std::move(fixed.remaining);
    return outcome;
  }
  std::optional<std::vector<std::string>> cells = notebook::split_cells(module->source, fixed.text);
  if (!cells) {
    Diagnostic& problem = outcome.problems.emplace_back();
    problem.code = kInternalErrorCode;
    problem.message = "Fixes moved a notebook cell boundary; the notebook was left unchanged (please report this)";
    problem.severity = Severity::Error;
    outcome.remaining = linter.lint(file);
    return outcome;
  }
  std::vector<std::pair<uint32_t, std::string>> changed;
  for (size_t i = 0; i < cells->size(); ++i) {
    uint32_t index = module->source.chunks[i].cell;
    if ((*cells)[i] != module->notebook.cells[index].text) changed.emplace_back(index, std::move((*cells)[i]));
  }
  outcome.text = notebook::rewrite_sources(file.text(), module->notebook, std::move(changed));
  outcome.applied = std::move(fixed.applied);
  outcome.remaining = linter.lint(SourceFile(file.path(), outcome.text, Language::Notebook));
  return outcome;
}

}  // namespace torchmigrate::engine
