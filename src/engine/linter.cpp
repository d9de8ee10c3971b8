// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/linter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "torchmigrate/engine/suppressions.hpp"
#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

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

// The test hook of Settings::prefilter for whole runs of the command line.
bool prefilter_disabled_by_environment() {
  const char* value = std::getenv("TORCHMIGRATE_NO_PREFILTER");
  return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

std::string describe_syntax_error(const python::Node& node) {
  if (node.is_missing()) return "Syntax error: expected `" + std::string(node.kind()) + "`";
  std::string_view text = node.text();
  text = text.substr(0, text.find('\n'));
  if (text.size() > 40) text = text.substr(0, 40);
  return "Syntax error: cannot parse `" + std::string(text) + "`; findings in the rest of the file are still reported";
}

// What counts as compatibility code for `rule`, from its catalog kind, release and spellings.
python::GuardRule guard_rule(const RuleSpec& rule, const Settings& settings) {
  python::GuardRule guard;
  guard.new_side_counts = rule.kind == RuleKind::ChangedDefault;
  guard.feature_tests = rule.kind != RuleKind::ChangedDefault;
  guard.release = rule.release.to;
  guard.min_torch = settings.min_torch;
  guard.try_markers = rule.compat_markers;
  guard.old_names = rule.compat_attributes.old_names;
  guard.new_names = rule.compat_attributes.new_names;
  return guard;
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

// `unfixable` rules still report, but offer no fix: not to --fix, not as `[*]`, not in an editor.
void withhold_unfixable(std::vector<Diagnostic>& diagnostics, const Settings& settings, const Catalog& catalog) {
  if (settings.fixable.empty() && settings.unfixable.empty()) return;
  for (Diagnostic& diagnostic : diagnostics) {
    const RuleSpec* rule = catalog.find(diagnostic.code);
    if (rule != nullptr && !settings.fixable_rule(*rule)) diagnostic.fixes.clear();
  }
}

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
    : catalog_(catalog), registry_(registry), settings_(std::move(settings)) {
  for (const RuleSpec& rule : catalog_.rules()) {
    if (!settings_.selection.enabled(rule)) continue;
    // TM001 looks at the suppressions of every language, so the linter runs it itself.
    if (rule.check_family == kUnusedSuppressionFamily) {
      unused_suppression_rule_ = &rule;
      continue;
    }
    // Building each check once validates its params now rather than on the first file.
    if (rule.language == RuleLanguage::Python) {
      const PythonCheckFactory* factory = registry_.python(rule.check_family);
      if (factory == nullptr) throw CatalogError(rule.code + ": unknown check family `" + rule.check_family + "`");
      (*factory)(rule);
      python_rules_.push_back(&rule);
    } else {
      const FileCheckFactory* factory = registry_.file(rule.check_family);
      if (factory == nullptr) throw CatalogError(rule.code + ": unknown check family `" + rule.check_family + "`");
      (*factory)(rule);
      (rule.language == RuleLanguage::Cxx ? cxx_rules_ : build_rules_).push_back(&rule);
    }
  }
  if (prefilter_disabled_by_environment()) settings_.prefilter = false;
  const RuleSpec& markers = suppression_markers(catalog_);
  auto build = [&](std::vector<const RuleSpec*> rules) {
    rules.push_back(&markers);
    return Prefilter(rules);
  };
  python_prefilter_.emplace(build(python_rules_));
  cxx_prefilter_.emplace(build(cxx_rules_));
  build_prefilter_.emplace(build(build_rules_));
}

std::vector<bool> Linter::candidates(const std::vector<const RuleSpec*>& rules, const Prefilter& prefilter,
                                     std::string_view text) const {
  if (!settings_.prefilter) return std::vector<bool>(rules.size() + 1, true);
  return prefilter.candidates(text);
}

std::vector<Diagnostic> Linter::lint(const SourceFile& file) const {
  if (auto note = over_budget(file, settings_)) return {*note};
  switch (file.language()) {
    case Language::Python: {
      std::vector<Diagnostic> diagnostics = lint_python(file, nullptr);
      // setup.py belongs to two fronts: Python, and packaging (its install_requires).
      if (std::filesystem::path(file.path()).filename() == "setup.py") {
        std::vector<Diagnostic> build = lint_other(file, RuleLanguage::Build);
        diagnostics.insert(diagnostics.end(), build.begin(), build.end());
        sort_diagnostics(diagnostics);
      }
      return diagnostics;
    }
    case Language::Cxx: return lint_other(file, RuleLanguage::Cxx);
    case Language::BuildFile: return lint_other(file, RuleLanguage::Build);
    case Language::Notebook: return lint_notebook(file);
    case Language::Unknown: return {};
  }
  return {};
}

std::vector<Diagnostic> Linter::lint(const SourceFile& file, const python::SyntaxTree& tree,
                                     const StopRequested& stop) const {
  if (auto note = over_budget(file, settings_)) return {*note};
  if (file.language() == Language::Python) return lint_python(file, &tree, stop);
  return lint(file);
}

std::vector<Diagnostic> Linter::lint_other(const SourceFile& file, RuleLanguage language) const {
  std::vector<Diagnostic> diagnostics;
  FileCheckContext context(file, settings_, diagnostics);
  bool cxx = language == RuleLanguage::Cxx;
  const std::vector<const RuleSpec*>& rules = cxx ? cxx_rules_ : build_rules_;
  std::vector<bool> fires = candidates(rules, cxx ? *cxx_prefilter_ : *build_prefilter_, file.text());
  for (size_t i = 0; i < rules.size(); ++i) {
    if (!fires[i]) continue;
    std::unique_ptr<FileCheck> check = (*registry_.file(rules[i]->check_family))(*rules[i]);
    check->check(context);
  }
  if (diagnostics.empty() && !(unused_suppression_rule_ != nullptr && fires.back())) return diagnostics;
  Suppressions suppressions = Suppressions::parse(file);
  finish_suppressions(file, suppressions, diagnostics);
  return diagnostics;
}

void Linter::finish_suppressions(const SourceFile& file, Suppressions& suppressions,
                                 std::vector<Diagnostic>& diagnostics) const {
  explain_unmet_requirements(diagnostics, settings_);
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
      Fix fix;
      fix.applicability = Applicability::Safe;
      if (unused_codes.size() == directive->codes.size()) {
        // Remove the whole comment and the blank space before it.
        uint32_t start = directive->comment.start;
        uint32_t line_start = file.lines().line_start(file.lines().line_of(start));
        while (start > line_start && (file.text()[start - 1] == ' ' || file.text()[start - 1] == '\t')) --start;
        fix.title = "Remove unused suppression";
        fix.edits.push_back(Edit::remove({start, directive->comment.end}));
      } else {
        std::vector<std::string> kept;
        for (size_t i = 0; i < directive->codes.size(); ++i) {
          if (std::find(unused_codes.begin(), unused_codes.end(), i) == unused_codes.end()) {
            kept.push_back(directive->codes[i]);
          }
        }
        std::string_view text = file.slice(directive->comment);
        bool cxx = text.starts_with("//");
        std::string list;
        for (const std::string& code : kept) list += (list.empty() ? "" : cxx ? "," : ", ") + code;
        size_t open = cxx ? text.find('(') : text.find(':', text.find("noqa")) ;
        size_t close = cxx ? text.find(')', open) : text.find_last_not_of(" \t") + 1;
        fix.title = "Remove unused codes from the suppression";
        fix.edits.push_back(Edit::replace({directive->comment.start + static_cast<uint32_t>(open) + 1,
                                           directive->comment.start + static_cast<uint32_t>(close)},
                                          cxx ? list : " " + list));
      }
      diagnostic.fixes.push_back(std::move(fix));
    }
  }
  withhold_unfixable(diagnostics, settings_, catalog_);
  sort_diagnostics(diagnostics);
}

std::vector<Diagnostic> Linter::lint_python(const SourceFile& file, const python::SyntaxTree* parsed,
                                            const StopRequested& stop) const {
  auto poll = [&stop] {
    if (stop && stop()) throw LintCancelled();
  };
  std::vector<std::unique_ptr<PythonCheck>> checks;
  std::vector<bool> fires = candidates(python_rules_, *python_prefilter_, file.text());
  for (size_t i = 0; i < python_rules_.size(); ++i) {
    if (fires[i]) checks.push_back((*registry_.python(python_rules_[i]->check_family))(*python_rules_[i]));
  }
  std::vector<Diagnostic> diagnostics;
  // Suppression comments are collected only where one may be.
  bool wants_comments = fires.back();
  // A file no enabled rule could match is not parsed at all (most files of a project): a
  // migration tool reports syntax errors only where they could hide a finding.
  if (checks.empty() && !(unused_suppression_rule_ != nullptr && wants_comments)) return diagnostics;
  std::optional<python::SyntaxTree> own_tree;
  if (parsed == nullptr) own_tree.emplace(python::SyntaxTree::parse(file.text()));
  const python::SyntaxTree& tree = parsed != nullptr ? *parsed : *own_tree;
  if (auto error = tree.first_error()) {
    Diagnostic& diagnostic = diagnostics.emplace_back();
    diagnostic.code = kParseErrorCode;
    diagnostic.message = describe_syntax_error(*error);
    diagnostic.range = {error->start(), error->start()};
    diagnostic.severity = Severity::Error;
  }
  if (tree.too_deep()) {
    diagnostics.clear();
    Diagnostic& diagnostic = diagnostics.emplace_back();
    diagnostic.code = kParseErrorCode;
    diagnostic.message = "Skipped: the code nests more than " + std::to_string(python::SyntaxTree::kMaxDepth) +
                         " syntax levels deep (CPython refuses far less); not checked, split the expression";
    diagnostic.range = {0, 0};
    diagnostic.severity = Severity::Error;
    return diagnostics;
  }

  std::vector<std::vector<PythonCheck*>> dispatch(python::python_kind_count());
  const python::KindId comment_kind = python::python_kind_id("comment");
  std::vector<TextRange> comments;
  for (const auto& check : checks) {
    for (std::string_view kind : check->node_kinds()) dispatch[python::python_kind_id(kind)].push_back(check.get());
  }
  poll();
  python::SemanticModel model(tree.root());
  PythonCheckContext context(file, model, settings_, diagnostics);

  // The hot loop: for_each_node inlines the visitor, no recursion, no allocation per node.
  uint32_t visited = 0;
  python::for_each_node(tree.root(), [&](python::Node node) {
    // A stale editor lint stops within a few milliseconds of the next edit.
    if (++visited % 4096 == 0 && stop && stop()) throw LintCancelled();
    python::KindId kind = python::python_kind_id(node.symbol());
    for (PythonCheck* check : dispatch[kind]) check->visit(node, context);
    if (kind == comment_kind && wants_comments) comments.push_back(node.range());
  });
  poll();
  for (const auto& check : checks) check->finish(context);
  poll();
  // Compatibility code already handles both versions, and code only older torch runs is dead
  // for this project: never flag either. Each rule's guards are computed once per file.
  python::CompatGuards guards(tree.root(), model);
  std::map<std::string, python::GuardRule> guard_rules;
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    const RuleSpec* rule = catalog_.find(diagnostic.code);
    if (rule == nullptr) return false;
    auto [it, inserted] = guard_rules.try_emplace(rule->code);
    if (inserted) it->second = guard_rule(*rule, settings_);
    return guards.verdict(diagnostic.range.start, rule->code, it->second) != python::GuardVerdict::Report;
  });
  Suppressions suppressions = Suppressions::parse(file, &comments);
  finish_suppressions(file, suppressions, diagnostics);
  return diagnostics;
}

}  // namespace torchmigrate::engine
