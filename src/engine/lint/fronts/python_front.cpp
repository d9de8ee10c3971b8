// SPDX-License-Identifier: MIT
// The Python front: parse once (tree-sitter), build the semantic model, walk the tree once
// dispatching each node to the checks that asked for its kind, drop findings in compatibility
// code, apply suppressions.
#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <string>

#include "torchmigrate/engine/lint/front.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/lint/statement_reuse.hpp"
#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/focus.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::engine {
namespace {

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

Diagnostic parse_error(std::string message, uint32_t at) {
  Diagnostic diagnostic;
  diagnostic.code = kParseErrorCode;
  diagnostic.message = std::move(message);
  diagnostic.range = {at, at};
  diagnostic.severity = Severity::Error;
  return diagnostic;
}

class PythonFront final : public Front {
 public:
  explicit PythonFront(const LintEnvironment& environment) : environment_(environment) {}

  [[nodiscard]] RuleLanguage rule_language() const override { return RuleLanguage::Python; }
  [[nodiscard]] bool reads(const SourceFile& file) const override { return file.language() == Language::Python; }

  void add_rule(const RuleSpec& rule) override {
    const PythonCheckFactory* factory = environment_.registry().python(rule.check_family);
    if (factory == nullptr) throw CatalogError(rule.code + ": unknown check family `" + rule.check_family + "`");
    rules_.push_back(&rule);
  }

  void ready() override {
    built_ = environment_.built_checks(rules_, RuleLanguage::Python);
    prefilter_ = environment_.prefilter(rules_);
  }

  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const LintInput& input) const override;

  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const override {
    return python::SyntaxTree::parse(file.text()).syntax_error_count();
  }

 private:
  const LintEnvironment& environment_;
  std::vector<const RuleSpec*> rules_;
  std::shared_ptr<const Prefilter> prefilter_;
  std::shared_ptr<const std::vector<FactsRead>> built_;  // held so that other linters share it
  // Which front made a memo: unique for the process, unlike an address.
  const uint64_t id_ = next_id();
  static uint64_t next_id() {
    static std::atomic<uint64_t> last{0};
    return ++last;
  }
};

std::vector<Diagnostic> PythonFront::lint(const SourceFile& file, const LintInput& input) const {
  const StopRequested& stop = input.stop;
  auto poll = [&stop] {
    if (stop && stop()) throw LintCancelled();
  };
  const Settings& settings = environment_.settings();
  std::vector<std::unique_ptr<PythonCheck>> checks;
  std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text());
  for (size_t i = 0; i < rules_.size(); ++i) {
    if (fires[i]) checks.push_back((*environment_.registry().python(rules_[i]->check_family))(*rules_[i]));
  }
  // A memo records one text's findings, whichever text it was: reuse compares statements.
  LintMemo* memo = input.memo;
  std::vector<Diagnostic> diagnostics;
  // Suppression comments are collected only where one may be.
  bool wants_comments = LintEnvironment::may_suppress(fires);
  // A file no enabled rule could match is not parsed at all (most files of a project): a
  // migration tool reports syntax errors only where they could hide a finding.
  if (checks.empty() && !environment_.may_report_unused_suppressions(fires)) return diagnostics;
  std::optional<python::SyntaxTree> own_tree;
  if (input.tree == nullptr) own_tree.emplace(python::SyntaxTree::parse(file.text()));
  const python::SyntaxTree& tree = input.tree != nullptr ? *input.tree : *own_tree;
  if (tree.too_deep()) {
    return {parse_error("Skipped: the code nests more than " + std::to_string(python::SyntaxTree::kMaxDepth) +
                            " syntax levels deep (CPython refuses far less); not checked, split the expression",
                        0)};
  }

  // An editor's edit inside one statement: check that statement only, keep the others' findings.
  bool memorable = memo != nullptr && std::all_of(checks.begin(), checks.end(), [&](const auto& check) {
                     return check->statement_local(file.text());
                   });
  std::vector<python::Node> statements;
  std::vector<TextRange> ranges;
  std::optional<StatementReuse> reuse;
  if (memorable) {
    statements = top_level_statements(tree);
    for (python::Node statement : statements) ranges.push_back(statement.range());
    if (memo->candidates == fires) reuse = reusable(*memo, id_, statements, ranges);
  }
  // The statements checked again, when the others' findings are kept.
  auto focus_of = [&](const StatementReuse& kept) {
    std::vector<TextRange> focused;
    for (size_t index : kept.rechecked) focused.push_back(ranges[index]);
    return python::Focus(std::move(focused));
  };

  std::vector<std::vector<PythonCheck*>> dispatch(python::python_kind_count());
  const python::KindId comment_kind = python::python_kind_id("comment");
  std::vector<TextRange> comments;
  for (const auto& check : checks) {
    for (std::string_view kind : check->node_kinds()) dispatch[python::python_kind_id(kind)].push_back(check.get());
  }
  poll();
  std::optional<python::SemanticModel> model;
  std::optional<ModuleNames> names;  // module_names of this text, once computed
  if (reuse) {
    model.emplace(tree.root(), focus_of(*reuse));
    names = module_names(*model, statements, ranges);
    // A module-level name now means something else: the statements that spell it may resolve
    // differently, and the model must read their bodies too.
    if (*names != memo->module_names) {
      const size_t edited = reuse->rechecked.size();
      if (recheck_users(*reuse, memo->module_names, *names, file.text(), statements, ranges)) {
        ++memo->renames;
        if (reuse->rechecked.size() > edited) model.emplace(tree.root(), focus_of(*reuse));
      } else {
        reuse.reset(), model.reset();
      }
    }
  }
  // Built on first use: in many files the prefilter lets through, no node a check visits needs it.
  auto whole_model = [&]() -> const python::SemanticModel& {
    if (!model) model.emplace(tree.root());
    return *model;
  };
  PythonCheckContext context(file, whole_model, settings, diagnostics);

  // The hot loop: for_each_node inlines the visitor, no recursion, no allocation per node. The
  // ancestors on the way down give each visited node's parent to the checks.
  uint32_t visited = 0;
  std::vector<python::Node> ancestors;
  // A whole walk gathers the guards' nodes too, which spares the guards a walk of their own.
  python::GuardNodes guard_nodes;
  auto visit = [&](python::Node node, uint32_t depth) {
    // A stale editor lint stops within a few milliseconds of the next edit.
    if (++visited % 4096 == 0 && stop && stop()) throw LintCancelled();
    ancestors.resize(depth);
    python::KindId kind = python::python_kind_id(node.symbol());
    if (!dispatch[kind].empty()) {
      // The walk's own root (the module, or an editor's re-checked statement) asks the tree.
      context.set_parent(depth > 0 ? ancestors.back() : node.parent());
      for (PythonCheck* check : dispatch[kind]) check->visit(node, context);
    }
    if (kind == comment_kind && wants_comments) comments.push_back(node.range());
    if (!reuse && python::is_guard_kind(kind))
      guard_nodes.emplace_back(node, depth > 0 ? ancestors.back() : python::Node());
    ancestors.push_back(node);
  };
  if (!reuse) {
    python::for_each_node(tree.root(), visit);
  } else {
    for (size_t index : reuse->rechecked) python::for_each_node(statements[index], visit);
  }
  poll();
  for (const auto& check : checks) check->finish(context);
  poll();
  // Compatibility code already handles both versions, and code only older torch runs is dead
  // for this project: never flag either. Each rule's guards are computed once per file.
  // Only a file with findings needs them.
  std::optional<python::CompatGuards> guards;
  std::map<std::string, python::GuardRule> guard_rules;
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    const RuleSpec* rule = environment_.catalog().find(diagnostic.code);
    if (rule == nullptr) return false;
    if (!guards && reuse) guards.emplace(tree.root(), whole_model(), focus_of(*reuse));
    if (!guards) guards.emplace(tree.root(), whole_model(), std::move(guard_nodes));
    auto [it, inserted] = guard_rules.try_emplace(rule->code);
    if (inserted) it->second = guard_rule(*rule, settings);
    return guards->verdict(diagnostic.range.start, rule->code, it->second) != python::GuardVerdict::Report;
  });
  if (reuse) {
    ++memo->reuses;
    memo->rechecked += reuse->rechecked.size();
    diagnostics.insert(diagnostics.end(), reuse->findings.begin(), reuse->findings.end());
    comments.insert(comments.end(), reuse->comments.begin(), reuse->comments.end());
    std::sort(comments.begin(), comments.end(),
              [](const TextRange& a, const TextRange& b) { return a.start < b.start; });
  }
  if (memorable) {
    memo->front = 0;  // until it is whole again
    memo->text = std::string(file.text());
    memo->candidates = fires;
    memo->statements = ranges;
    memo->guard_statements.clear();
    memo->broken_statements.clear();
    for (python::Node statement : statements) {
      memo->guard_statements.push_back(is_guard_statement(statement));
      memo->broken_statements.push_back(statement.has_error());
    }
    memo->module_names = names ? std::move(*names) : module_names(whole_model(), statements, ranges);
    memo->findings = diagnostics;
    memo->comments = comments;
    memo->front = id_;
  }
  // Never kept in the memo: it follows the whole text, not a statement.
  if (std::optional<python::Node> error = tree.first_error()) {
    diagnostics.push_back(parse_error(describe_syntax_error(*error), error->start()));
  }
  Suppressions suppressions = Suppressions::parse(file, &comments);
  environment_.finish(file, suppressions, diagnostics);
  return diagnostics;
}

}  // namespace

std::unique_ptr<Front> make_python_front(const LintEnvironment& environment) {
  return std::make_unique<PythonFront>(environment);
}

}  // namespace torchmigrate::engine
