// SPDX-License-Identifier: MIT
// Family `exception-class-replaced`: some calls now raise a class that is not a subclass of the
// one they raised before (TM114: `torch.cat([])`, RuntimeError -> ValueError). `except Old` and
// `pytest.raises(Old)` around such a call stop catching the error; the fix widens the handler.
#include "torchmigrate/checks/python_checks.hpp"

#include <optional>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/exception_widening.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/engine/lint/word_scan.hpp"
#include "torchmigrate/python/line_blocks.hpp"
#include "torchmigrate/python/tree_walk.hpp"
#include "torchmigrate/python/word_places.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// True when `name.append(...)` or `name.extend(...)` is called inside a loop of `scope`.
bool filled_in_loop(Node scope, std::string_view name) {
  bool found = false;
  python::for_each_node(scope, [&](Node node) {
    std::string_view kind = node.kind();
    if (kind != "for_statement" && kind != "while_statement") return python::WalkStep::Enter;
    python::for_each_node(node, [&](Node inner) {
      if (inner.kind() != "call") return python::WalkStep::Enter;
      Node function = inner.field("function");
      if (function.kind() == "attribute" && function.field("object").text() == name &&
          (function.field("attribute").text() == "append" || function.field("attribute").text() == "extend")) {
        found = true;
        return python::WalkStep::Stop;
      }
      return python::WalkStep::Enter;
    });
    return found ? python::WalkStep::Stop : python::WalkStep::Skip;
  });
  return found;
}

// `[a, b]`: the empty-list error cannot happen (a `*rest` element may still be empty).
bool is_filled_display(Node node) {
  node = strip_parentheses(node);
  if (!node || (node.kind() != "list" && node.kind() != "tuple")) return false;
  bool filled = false;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    std::string_view kind = node.named_child(i).kind();
    if (kind == "list_splat") return false;
    filled = filled || kind != "comment";
  }
  return filled;
}

bool is_empty_display(Node node) {
  if (node.kind() != "list" && node.kind() != "tuple") return false;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    if (node.named_child(i).kind() != "comment") return false;
  }
  return true;
}

// Why the list argument may be empty, or "" when nothing shows it.
std::string why_possibly_empty(const python::SemanticModel& model, Node argument) {
  argument = strip_parentheses(argument);
  if (!argument) return {};
  std::string_view kind = argument.kind();
  if (is_empty_display(argument)) return "the list is the literal `" + std::string(argument.text()) + "`";
  if (kind == "list_comprehension" || kind == "generator_expression") return "the list is a comprehension";
  if (kind != "identifier") return {};
  for (const python::Binding* binding : model.reaching_bindings(argument.text(), argument)) {
    Node statement = binding->node;
    if (binding->kind != python::BindingKind::Local || statement.kind() != "assignment") continue;
    Node right = statement.field("right");
    if (!right || !is_empty_display(strip_parentheses(right))) continue;
    Node function = enclosing_function(statement);
    Node scope = function ? function.field("body") : Node();
    if (!scope) {
      for (scope = statement; scope.parent(); scope = scope.parent()) {
      }
    }
    if (filled_in_loop(scope, argument.text())) {
      return "`" + std::string(argument.text()) + "` starts empty and is filled in a loop";
    }
  }
  return {};
}

class ExceptionClassReplacedCheck final : public engine::PythonCheck {
 public:
  explicit ExceptionClassReplacedCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) {
      callees_.insert(callee);
      leaves_.insert(callee.substr(callee.rfind('.') + 1));
    }
    Widening widening = read_widening(params);
    change_ = std::move(widening.change);
    trusted_modules_ = std::move(widening.trusted_modules);
    list_keyword_ = params.string("list_keyword");
    list_position_ = params.integer("list_position");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call"}; }

  [[nodiscard]] bool may_report(std::string_view text) const override;

  void visit(Node call, PythonCheckContext& context) override {
    const python::SemanticModel& model = context.model();
    if (std::optional<std::string> callee = model.resolve_call(call); callee && callees_.count(*callee)) {
      CallArguments arguments(call);
      Node list = arguments.valid() ? arguments.keyword_value(list_keyword_) : Node();
      if (!list && arguments.valid() && arguments.positional().size() > list_position_) {
        list = arguments.positional()[list_position_];
      }
      if (is_filled_display(list)) return;
      if (std::optional<MissedCatch> missed = find_missed_catch(model, call, change_)) {
        report(*missed, *callee, list, context);
      }
      return;
    }
    // `assertRaises(RuntimeError, torch.cat, [])`: the callable is passed, not called.
    std::optional<TestAssertion> assertion = read_test_assertion(model, call);
    if (!assertion || !assertion->callable) return;
    std::optional<std::string> callee = model.resolve(assertion->callable);
    if (!callee || !callees_.count(*callee)) return;
    Node list = assertion->arguments.size() > list_position_ ? assertion->arguments[list_position_] : Node();
    if (is_filled_display(list)) return;
    if (std::optional<MissedCatch> missed = missed_by_assertion(model, *assertion, change_)) {
      report(*missed, *callee, list, context);
    }
  }

 private:
  void report(const MissedCatch& missed, const std::string& callee, Node list, PythonCheckContext& context) {
    if (!reported_.insert(missed.site.start()).second) return;
    const python::SemanticModel& model = context.model();
    std::string why = list ? why_possibly_empty(model, list) : std::string();
    std::string detail = why.empty() ? std::string() : " (" + why + ")";
    bool fixable = widening_offered(missed, [&](Node call) { return calls_under(model, call, trusted_modules_); });
    if (!fixable) detail += kWideningWithheld;
    Diagnostic& diagnostic = context.report(rule(), catch_range(missed),
                                            {{"site", describe_catch(missed)}, {"callee", callee}, {"detail", detail}});
    if (!why.empty()) diagnostic.severity = Severity::Error;
    if (fixable) diagnostic.fixes.push_back(widening_fix(rule(), missed, change_.new_class));
  }

  std::set<std::string> callees_;
  std::set<std::string, std::less<>> leaves_;  // the callees' last names: `cat`
  ClassChange change_;
  std::vector<std::string> trusted_modules_;
  std::string list_keyword_;
  size_t list_position_ = 0;
  std::set<uint32_t> reported_;
};

// Whether `raises` is spelt other than as a call (`from pytest import raises as expect`,
// `expect = pytest.raises`): then any `with` may be an assertion.
bool raises_renamed(std::string_view text) {
  bool renamed = false;
  python::WordPlaces places(text);
  engine::for_each_word(text, [&](size_t begin, size_t end) {
    if (text.substr(begin, end - begin) != "raises" || !places.may_be_code(begin)) return true;
    size_t next = text.find_first_not_of(" \t", end);
    // A call, or a keyword of that name (`pytest.mark.xfail(raises=...)`), renames nothing.
    bool keyword = next != std::string_view::npos && text[next] == '=' && text.substr(next, 2) != "==";
    renamed = next == std::string_view::npos || (text[next] != '(' && !keyword);
    return !renamed;
  });
  return renamed;
}

// A finding needs a callee called inside the body of a `try`, or of a `with` of an assertion
// (`pytest.raises`, `assertRaises`), in its own function, or passed to an assertion on its line.
// Read from the lines: a file whose every `cat` is called elsewhere is not parsed. A callee
// spelt other than as a call (an import, `f = torch.cat`, a string) may reach a call under
// another name: then maybe.
bool ExceptionClassReplacedCheck::may_report(std::string_view text) const {
  python::LineBlocks blocks(text);
  if (blocks.unreadable()) return true;
  python::WordPlaces places(text);
  std::optional<bool> any_with;  // every `with` may assert, once known
  bool maybe = false;
  // A site the lines make possible counts where it may be code (not a comment or a message):
  // asked last, since placing a word reads the text up to it.
  auto site = [&](size_t begin) { return !(maybe = places.may_be_code(begin)); };
  engine::for_each_word(text, [&](size_t begin, size_t end) {
    if (!leaves_.count(text.substr(begin, end - begin))) return true;
    size_t next = text.find_first_not_of(" \t", end);
    if (next == std::string_view::npos || text[next] != '(') return site(begin);
    if (blocks.statement_up_to(begin).find("aises") != std::string_view::npos) return site(begin);
    for (std::string_view header : blocks.enclosing_headers(begin)) {
      if (header.starts_with("async ")) header.remove_prefix(6);
      auto keyword = [&](std::string_view word) {
        return header.starts_with(word) && (header.size() == word.size() || !engine::is_word_byte(header[word.size()]));
      };
      if (keyword("try")) return site(begin);
      if (keyword("with")) {
        if (!any_with) any_with = raises_renamed(text);
        if (*any_with || header.find("aises") != std::string_view::npos) return site(begin);
      }
      if (keyword("def") || keyword("class")) break;
    }
    return true;
  });
  return maybe;
}

}  // namespace

std::unique_ptr<engine::PythonCheck> make_exception_class_replaced_check(const engine::RuleSpec& rule) {
  return std::make_unique<ExceptionClassReplacedCheck>(rule);
}

}  // namespace torchmigrate::checks
