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
#include "torchmigrate/python/python2_forms.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/statement_slice.hpp"
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

  [[nodiscard]] FactsRead facts_read(const SourceFile& file, bool any_text) const override {
    FactsRead read;
    std::vector<bool> fires =
        any_text ? std::vector<bool>(rules_.size(), true)
                 : environment_.candidates(rules_.size(), *prefilter_, file.text(), WordPlacesOf::Python);
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (fires[i]) read |= (*built_)[i];
    }
    return read;
  }

 private:
  class Run;

  // The checks of the rules `fires` names, less those that rule the file out (cleared in `fires`).
  [[nodiscard]] std::vector<std::unique_ptr<PythonCheck>> checks_for(const SourceFile& file,
                                                                     std::vector<bool>& fires) const;
  [[nodiscard]] std::optional<python::SyntaxTree> sliced_tree(
      const SourceFile& file, const LintInput& input, const std::vector<bool>& fires,
      const std::vector<std::unique_ptr<PythonCheck>>& checks) const;

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

// Which checks visit each node kind.
using Dispatch = std::vector<std::vector<PythonCheck*>>;

Dispatch dispatch_table(const std::vector<std::unique_ptr<PythonCheck>>& checks) {
  Dispatch dispatch(python::python_kind_count());
  for (const auto& check : checks) {
    for (std::string_view kind : check->node_kinds()) dispatch[python::python_kind_id(kind)].push_back(check.get());
  }
  return dispatch;
}

// One lint of one parsed file, step by step: the state the steps share.
class PythonFront::Run {
 public:
  Run(const PythonFront& front, const SourceFile& file, const LintInput& input, const python::SyntaxTree& tree,
      const std::vector<bool>& fires, const std::vector<std::unique_ptr<PythonCheck>>& checks)
      : front_(front),
        file_(file),
        tree_(tree),
        fires_(fires),
        checks_(checks),
        stop_(input.stop),
        memo_(input.memo),
        settings_(front.environment_.settings()),
        wants_comments_(LintEnvironment::may_suppress(fires)) {}

  std::vector<Diagnostic> lint();

 private:
  void poll() const {
    if (stop_ && stop_()) throw LintCancelled();
  }
  void find_reuse();
  [[nodiscard]] python::Focus focus_of(const StatementReuse& kept) const;
  void follow_renames();
  const python::SemanticModel& whole_model();
  void walk(const Dispatch& dispatch, python::KindId comment_kind, PythonCheckContext& context);
  void drop_compatibility_findings();
  void merge_reused();
  void remember();

  const PythonFront& front_;
  const SourceFile& file_;
  const python::SyntaxTree& tree_;
  const std::vector<bool>& fires_;
  const std::vector<std::unique_ptr<PythonCheck>>& checks_;
  const StopRequested& stop_;
  // A memo records one text's findings, whichever text it was: reuse compares statements.
  LintMemo* memo_;
  const Settings& settings_;
  // Suppression comments are collected only where one may be.
  const bool wants_comments_;
  bool memorable_ = false;
  std::vector<python::Node> statements_;
  std::vector<TextRange> ranges_;
  std::optional<StatementReuse> reuse_;
  std::optional<python::SemanticModel> model_;
  std::optional<ModuleNames> names_;  // module_names of this text, once computed
  std::vector<TextRange> comments_;
  // A whole walk gathers the guards' nodes too, which spares the guards a walk of their own.
  python::GuardNodes guard_nodes_;
  std::vector<Diagnostic> diagnostics_;
};

// The statement around `range`: the node whose parent is a block or the module. For a compound
// statement, only its header counts (up to its first block), since a slice keeps part of a block.
TextRange statement_around(const python::SyntaxTree& tree, TextRange range) {
  python::Node node = tree.root().descendant_for_range(range.start, range.end);
  while (node && node.parent() && node.parent().kind() != "block" && node.parent().kind() != "module") {
    node = node.parent();
  }
  if (!node || node.kind() == "module") return {range.start, range.start};
  TextRange limit = node.range();
  python::for_each_node(node, [&](python::Node inner) {
    if (inner.kind() != "block") return python::WalkStep::Enter;
    limit.end = std::min(limit.end, inner.start());
    return python::WalkStep::Stop;
  });
  return limit;
}

// Whether every fix of a sliced lint edits inside the statement holding its finding, short of
// replacing it whole. A fix that deletes a statement reads the statements around it, and one that
// unwraps a `with` reads its whole block: a slice may not hold them, so such a file is linted again
// from a whole parse.
bool fixes_inside_statements(const python::SyntaxTree& tree, const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.fixes.empty()) continue;
    TextRange statement = statement_around(tree, diagnostic.range);
    for (const Fix& fix : diagnostic.fixes) {
      for (const Edit& edit : fix.edits) {
        bool inside = edit.range.start >= statement.start && edit.range.end <= statement.end;
        bool whole = edit.range.start <= statement.start && edit.range.end >= statement.end;
        if (!inside || whole) return false;
      }
    }
  }
  return true;
}

// The tree of the statements the checks need, when every check accepts a slice: a large file
// that one narrow rule admits is parsed in a few places. Not for an editor (whose memo compares
// whole statements), nor where a suppression comment may sit anywhere; a slice that does not
// parse cleanly gives way to the whole text.
std::optional<python::SyntaxTree> PythonFront::sliced_tree(
    const SourceFile& file, const LintInput& input, const std::vector<bool>& fires,
    const std::vector<std::unique_ptr<PythonCheck>>& checks) const {
  if (!environment_.settings().prefilter || input.memo != nullptr || LintEnvironment::may_suppress(fires)) return {};
  std::vector<std::string> anchors;
  std::vector<std::string> markers;
  for (const auto& check : checks) {
    std::optional<std::vector<std::string>> words = check->slice_anchors();
    if (!words) return {};
    anchors.insert(anchors.end(), words->begin(), words->end());
    // The spellings compatibility guards look for: a branch that uses the new attribute.
    const RuleSpec& rule = check->rule();
    for (const auto* list :
         {&rule.compat_markers, &rule.compat_attributes.old_names, &rule.compat_attributes.new_names}) {
      markers.insert(markers.end(), list->begin(), list->end());
    }
  }
  std::optional<std::vector<python::SliceSpan>> spans = python::slice_statements(file.text(), anchors, markers);
  if (!spans) return {};
  python::SyntaxTree tree = python::SyntaxTree::parse_spans(file.text(), *spans);
  if (tree.root().has_error()) return {};
  return tree;
}

std::vector<std::unique_ptr<PythonCheck>> PythonFront::checks_for(const SourceFile& file,
                                                                  std::vector<bool>& fires) const {
  std::vector<std::unique_ptr<PythonCheck>> checks;
  for (size_t i = 0; i < rules_.size(); ++i) {
    if (!fires[i]) continue;
    std::unique_ptr<PythonCheck> check = (*environment_.registry().python(rules_[i]->check_family))(*rules_[i]);
    // A check may rule the file out from its text, as the prefilter does from trigger words.
    if (environment_.settings().prefilter && !check->may_report(file.text())) {
      fires[i] = false;
      continue;
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

std::vector<Diagnostic> PythonFront::lint(const SourceFile& file, const LintInput& input) const {
  std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text(), WordPlacesOf::Python);
  std::vector<std::unique_ptr<PythonCheck>> checks = checks_for(file, fires);
  // A file no enabled rule could match is not parsed at all (most files of a project): a
  // migration tool reports syntax errors only where they could hide a finding.
  if (checks.empty() && !environment_.may_report_unused_suppressions(fires)) return {};
  if (input.tree == nullptr) {
    if (std::optional<python::SyntaxTree> sliced = sliced_tree(file, input, fires, checks)) {
      std::vector<Diagnostic> diagnostics = Run(*this, file, input, *sliced, fires, checks).lint();
      if (fixes_inside_statements(*sliced, diagnostics)) return diagnostics;
      checks = checks_for(file, fires);  // a check keeps what it saw of a file
    }
  }
  std::optional<python::SyntaxTree> own_tree;
  if (input.tree == nullptr) own_tree.emplace(python::SyntaxTree::parse(file.text()));
  const python::SyntaxTree& tree = input.tree != nullptr ? *input.tree : *own_tree;
  if (tree.too_deep()) {
    return {parse_error("Skipped: the code nests more than " + std::to_string(python::SyntaxTree::kMaxDepth) +
                            " syntax levels deep (CPython refuses far less); not checked, split the expression",
                        0)};
  }
  return Run(*this, file, input, tree, fires, checks).lint();
}

std::vector<Diagnostic> PythonFront::Run::lint() {
  find_reuse();
  Dispatch dispatch = dispatch_table(checks_);
  const python::KindId comment_kind = python::python_kind_id("comment");
  poll();
  if (reuse_) follow_renames();
  PythonCheckContext context(
      file_, [this]() -> const python::SemanticModel& { return whole_model(); }, settings_, diagnostics_);
  walk(dispatch, comment_kind, context);
  poll();
  for (const auto& check : checks_) check->finish(context);
  poll();
  drop_compatibility_findings();
  if (reuse_) merge_reused();
  if (memorable_) remember();
  // Never kept in the memo: it follows the whole text, not a statement.
  // A Python 2 form the grammar still parses is an error too, where it comes first.
  std::optional<python::Node> error = tree_.first_error();
  std::optional<python::Python2Form> python2 = python::first_python2_form(tree_);
  if (python2 && (!error || python2->node.start() < error->start())) {
    diagnostics_.push_back(parse_error(
        "Syntax error: " + python2->message + " (Python 2 syntax); findings in the rest of the file are still reported",
        python2->node.start()));
  } else if (error) {
    diagnostics_.push_back(parse_error(describe_syntax_error(*error), error->start()));
  }
  // Without a comment there is no directive, and no line to map.
  Suppressions suppressions = Suppressions::parse(file_, &comments_, comments_.empty() ? nullptr : &tree_);
  front_.environment_.finish(file_, suppressions, diagnostics_);
  return std::move(diagnostics_);
}

// An editor's edit inside one statement: check that statement only, keep the others' findings.
void PythonFront::Run::find_reuse() {
  memorable_ = memo_ != nullptr && std::all_of(checks_.begin(), checks_.end(),
                                               [&](const auto& check) { return check->statement_local(file_.text()); });
  if (!memorable_) return;
  statements_ = top_level_statements(tree_);
  for (python::Node statement : statements_) ranges_.push_back(statement.range());
  if (memo_->candidates == fires_) reuse_ = reusable(*memo_, front_.id_, statements_, ranges_);
}

// The statements checked again, when the others' findings are kept.
python::Focus PythonFront::Run::focus_of(const StatementReuse& kept) const {
  std::vector<TextRange> focused;
  for (size_t index : kept.rechecked) focused.push_back(ranges_[index]);
  return python::Focus(std::move(focused));
}

void PythonFront::Run::follow_renames() {
  model_.emplace(tree_.root(), focus_of(*reuse_));
  names_ = module_names(*model_, statements_, ranges_);
  // A module-level name now means something else: the statements that spell it may resolve
  // differently, and the model must read their bodies too.
  if (*names_ == memo_->module_names) return;
  const size_t edited = reuse_->rechecked.size();
  if (recheck_users(*reuse_, memo_->module_names, *names_, file_.text(), statements_, ranges_)) {
    ++memo_->renames;
    if (reuse_->rechecked.size() > edited) model_.emplace(tree_.root(), focus_of(*reuse_));
  } else {
    reuse_.reset(), model_.reset();
  }
}

// Built on first use: in many files the prefilter lets through, no node a check visits needs it.
const python::SemanticModel& PythonFront::Run::whole_model() {
  if (!model_) model_.emplace(tree_.root());
  return *model_;
}

void PythonFront::Run::walk(const Dispatch& dispatch, python::KindId comment_kind, PythonCheckContext& context) {
  const StopRequested& stop = stop_;
  // The hot loop: for_each_node inlines the visitor, no recursion, no allocation per node. The
  // ancestors on the way down give each visited node's parent to the checks.
  uint32_t visited = 0;
  std::vector<python::Node> ancestors;
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
    if (kind == comment_kind && wants_comments_) comments_.push_back(node.range());
    if (!reuse_ && python::is_guard_kind(kind))
      guard_nodes_.emplace_back(node, depth > 0 ? ancestors.back() : python::Node());
    ancestors.push_back(node);
  };
  if (!reuse_) {
    python::for_each_node(tree_.root(), visit);
  } else {
    for (size_t index : reuse_->rechecked) python::for_each_node(statements_[index], visit);
  }
}

// Compatibility code already handles both versions, and code only older torch runs is dead
// for this project: never flag either. Each rule's guards are computed once per file.
// Only a file with findings needs them.
void PythonFront::Run::drop_compatibility_findings() {
  std::optional<python::CompatGuards> guards;
  std::map<std::string, python::GuardRule> guard_rules;
  std::erase_if(diagnostics_, [&](const Diagnostic& diagnostic) {
    const RuleSpec* rule = front_.environment_.catalog().find(diagnostic.code);
    if (rule == nullptr) return false;
    if (!guards && reuse_) guards.emplace(tree_.root(), whole_model(), focus_of(*reuse_));
    if (!guards) guards.emplace(tree_.root(), whole_model(), std::move(guard_nodes_));
    auto [it, inserted] = guard_rules.try_emplace(rule->code);
    if (inserted) it->second = guard_rule(*rule, settings_);
    return guards->verdict(diagnostic.range.start, rule->code, it->second) != python::GuardVerdict::Report;
  });
}

void PythonFront::Run::merge_reused() {
  ++memo_->reuses;
  memo_->rechecked += reuse_->rechecked.size();
  diagnostics_.insert(diagnostics_.end(), reuse_->findings.begin(), reuse_->findings.end());
  comments_.insert(comments_.end(), reuse_->comments.begin(), reuse_->comments.end());
  std::sort(comments_.begin(), comments_.end(),
            [](const TextRange& a, const TextRange& b) { return a.start < b.start; });
}

void PythonFront::Run::remember() {
  memo_->front = 0;  // until it is whole again
  memo_->text = std::string(file_.text());
  memo_->candidates = fires_;
  memo_->statements = ranges_;
  memo_->guard_statements.clear();
  memo_->broken_statements.clear();
  for (python::Node statement : statements_) {
    memo_->guard_statements.push_back(is_guard_statement(statement));
    memo_->broken_statements.push_back(statement.has_error());
  }
  memo_->module_names = names_ ? std::move(*names_) : module_names(whole_model(), statements_, ranges_);
  memo_->findings = diagnostics_;
  memo_->comments = comments_;
  memo_->front = front_.id_;
}

}  // namespace

std::unique_ptr<Front> make_python_front(const LintEnvironment& environment) {
  return std::make_unique<PythonFront>(environment);
}

}  // namespace torchmigrate::engine
