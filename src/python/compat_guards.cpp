// SPDX-License-Identifier: MIT
#include "torchmigrate/python/compat_guards.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::python {
namespace {

using Versions = CompatGuards::Versions;
using State = CompatGuards::State;

bool mentions(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

bool catches_missing_names(Node try_statement) {
  for (uint32_t i = 0; i < try_statement.named_child_count(); ++i) {
    Node clause = try_statement.named_child(i);
    if (clause.kind() != "except_clause") continue;
    Node value = clause.field("value");
    if (!value) {
      // tree-sitter-python 0.23 stores the caught type as the first named child.
      Node first = clause.named_child(0);
      if (first && first.kind() != "block") value = first;
    }
    // Only handlers for a missing name mark compatibility code; `except Exception` is ordinary
    // error handling and must not hide findings (TM203 lives there).
    if (value && mentions(value.text(), {"ImportError", "ModuleNotFoundError", "AttributeError"})) return true;
  }
  return false;
}

bool mentions_marker(Node try_statement, const std::vector<std::string>& markers) {
  if (markers.empty()) return true;
  std::string_view text = try_statement.text();
  return std::any_of(markers.begin(), markers.end(),
                     [&](const std::string& marker) { return text.find(marker) != std::string_view::npos; });
}

int key(TorchVersion version) { return version.major * 1000 + version.minor; }

Versions intersect(Versions a, Versions b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }
Versions hull(Versions a, Versions b) {
  if (a.lo >= a.hi) return b;
  if (b.lo >= b.hi) return a;
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
bool is_any(Versions v) { return v.lo == 0 && v.hi == Versions::kAny; }

// Where a condition lets each branch run. Conditions that say nothing about torch leave both
// branches every version.
struct Split {
  Versions when_true, when_false;
};

std::string_view last_segment(std::string_view name) {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

// The names the import statements of `block` bind: `X` of `from m import X`, `Y` of `... as Y`.
std::vector<std::string_view> imported_names(Node block) {
  std::vector<std::string_view> names;
  for (uint32_t i = 0; block && i < block.named_child_count(); ++i) {
    Node statement = block.named_child(i);
    if (statement.kind() != "import_from_statement" && statement.kind() != "import_statement") continue;
    for (Node name : statement.children_of_field("name")) {
      Node alias = name.kind() == "aliased_import" ? name.field("alias") : Node();
      names.push_back(alias ? alias.text() : last_segment(name.text()));
    }
  }
  return names;
}

// `NAME is None`, `NAME is not None`, `if NAME:`, `if not NAME:` outside the try: the code tests
// whether the optional import succeeded.
bool tested_for_absence(std::string_view source, std::string_view name) {
  const std::string word(name);  // an identifier: nothing in it for a regex to read
  const std::regex test("\\b" + word + "\\s+is\\s+(?:not\\s+)?None\\b|\\b(?:if|elif|and|or|not)\\s+" + word +
                        "\\s*(?::|\\band\\b|\\bor\\b|\\))");
  return std::regex_search(source.begin(), source.end(), test);
}

// `try: from torch.x import X` / `except ImportError: X = None`, X then tested before use: the
// optional import has a real fallback, whatever new spelling it uses.
bool optional_import(Node try_statement) {
  std::vector<std::string_view> names = imported_names(try_statement.field("body"));
  if (names.empty()) return false;
  for (uint32_t i = 0; i < try_statement.named_child_count(); ++i) {
    Node clause = try_statement.named_child(i);
    if (clause.kind() != "except_clause") continue;
    Node block = clause.named_child(clause.named_child_count() - 1);
    for (uint32_t j = 0; block && block.kind() == "block" && j < block.named_child_count(); ++j) {
      Node assignment = block.named_child(j).named_child_count() > 0 ? block.named_child(j).named_child(0) : Node();
      if (!assignment || assignment.kind() != "assignment") continue;
      Node left = assignment.field("left");
      Node right = assignment.field("right");
      if (!left || !right || right.kind() != "none") continue;
      if (std::find(names.begin(), names.end(), left.text()) == names.end()) continue;
      if (tested_for_absence(try_statement.source(), left.text())) return true;
    }
  }
  return false;
}

// `if hasattr(obj, "name"): <uses .name> else: <fallback>` on a torch object, or `if not
// hasattr(obj, "name"): <fallback> else: <uses .name>`: the fallback runs
// only on torch without the attribute, which the project tells apart itself. The branch that
// has the attribute must use it, so an unrelated test (`hasattr(torch, "compile")`) is no sign.
Node attribute_fallback(Node condition, Node body, Node otherwise, const SemanticModel& model) {
  bool negated = false;
  while (condition && (condition.kind() == "not_operator" || condition.kind() == "parenthesized_expression")) {
    negated = negated != (condition.kind() == "not_operator");
    condition = condition.kind() == "not_operator" ? condition.field("argument") : condition.named_child(0);
  }
  if (!condition || condition.kind() != "call") return {};
  Node function = condition.field("function");
  Node arguments = condition.field("arguments");
  if (!function || function.text() != "hasattr" || !arguments || arguments.named_child_count() != 2) return {};
  std::optional<std::string> object = model.resolve(arguments.named_child(0));
  if (!object || !(*object == "torch" || object->starts_with("torch."))) return {};
  Node attribute = arguments.named_child(1);
  if (attribute.kind() != "string" || attribute.text().size() < 3) return {};
  std::string_view text = attribute.text();
  std::string use = "." + std::string(text.substr(1, text.size() - 2));
  auto uses = [&](Node branch) { return branch && branch.text().find(use) != std::string_view::npos; };
  if (negated) return uses(otherwise) ? body : Node();
  return uses(body) ? otherwise : Node();
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A literal release: "2.8", '2.8.0', (2, 8), 2.8, version.parse("2.8").
struct Literal {
  TorchVersion version;
  bool patch = false;  // a non-zero third component: `< 2.7.1` still admits 2.7.0
};

bool is_version_call(Node call) {
  Node function = call.field("function");
  if (!function) return false;
  std::string_view name = last_segment(function.text());
  return name == "parse" || name == "Version" || name == "LooseVersion" || name == "StrictVersion" ||
         name == "TorchVersion" || name == "parse_version";
}

Node first_argument(Node call) {
  Node arguments = call.field("arguments");
  return arguments && arguments.named_child_count() > 0 ? arguments.named_child(0) : Node();
}

std::optional<Literal> literal(Node node) {
  if (!node) return std::nullopt;
  std::string_view kind = node.kind();
  if (kind == "call") return is_version_call(node) ? literal(first_argument(node)) : std::nullopt;
  if (kind != "string" && kind != "tuple" && kind != "list" && kind != "float") return std::nullopt;
  std::string_view text = node.text();
  if (text.size() > 40) return std::nullopt;
  static const std::regex shape(R"(^[rRbBuU]?[("'\[]*\s*v?(\d+)\s*[.,]\s*(\d+)(?:\s*[.,]\s*(\d+))?)");
  std::cmatch match;
  if (!std::regex_search(text.data(), text.data() + text.size(), match, shape)) return std::nullopt;
  Literal out{{std::stoi(match[1].str()), std::stoi(match[2].str())},
              match[3].matched && std::stoi(match[3].str()) != 0};
  return out;
}

enum class Op { Less, LessEqual, Greater, GreaterEqual };

std::optional<Op> op_from(std::string_view text) {
  if (text == "<") return Op::Less;
  if (text == "<=") return Op::LessEqual;
  if (text == ">") return Op::Greater;
  if (text == ">=") return Op::GreaterEqual;
  return std::nullopt;
}

Op mirrored(Op op) {
  switch (op) {
    case Op::Less: return Op::Greater;
    case Op::LessEqual: return Op::GreaterEqual;
    case Op::Greater: return Op::Less;
    case Op::GreaterEqual: return Op::LessEqual;
  }
  return op;
}

// `torch version OP literal`, at minor-release granularity and erring towards "may run":
// `> 2.7` may be true on 2.7.1, `< 2.7.1` on 2.7.0.
Split compare(Op op, Literal literal) {
  const int at = key(literal.version);
  const int after = key(literal.version.next());
  switch (op) {
    case Op::GreaterEqual: return {{at, Versions::kAny}, {0, literal.patch ? after : at}};
    case Op::Greater: return {{at, Versions::kAny}, {0, after}};
    case Op::Less: return {{0, literal.patch ? after : at}, {at, Versions::kAny}};
    case Op::LessEqual: return {{0, after}, {at, Versions::kAny}};
  }
  return {};
}

// Project flags that name a comparison: `is_torch_less_than_1_11`, `TORCH_GE_2_8`,
// `is_torch_greater_or_equal_than_2_8`; calls `is_torch_greater_or_equal("2.8")`.
std::optional<Op> flag_op(std::string_view word) {
  auto starts = [&](std::initializer_list<std::string_view> prefixes) {
    return std::any_of(prefixes.begin(), prefixes.end(),
                       [&](std::string_view prefix) { return word.starts_with(prefix); });
  };
  if (starts({"greater_or_equal", "greater_equal", "at_least", "geq", "ge"})) return Op::GreaterEqual;
  if (starts({"greater", "newer", "after", "gt"})) return Op::Greater;
  if (starts({"less_or_equal", "less_equal", "leq"})) return Op::LessEqual;
  if (starts({"less", "older", "before", "lt"})) return Op::Less;
  if (starts({"le"})) return Op::LessEqual;
  return std::nullopt;
}

struct Flag {
  Op op;
  std::optional<TorchVersion> version;  // from the name; else from the call's argument
};

std::optional<Flag> flag(std::string_view name) {
  std::string text = lower(last_segment(name));
  size_t torch = text.find("torch");
  if (torch == std::string::npos) return std::nullopt;
  std::string rest = text.substr(torch + 5);
  static const std::regex shape(R"(^(?:_version)?_?([a-z_]+?)(?:_than)?(?:_?(\d+)_(\d+)(?:_\d+)?)?$)");
  std::smatch match;
  if (!std::regex_match(rest, match, shape)) return std::nullopt;
  std::optional<Op> op = flag_op(match[1].str());
  if (!op) return std::nullopt;
  Flag out{*op, std::nullopt};
  if (match[2].matched) out.version = TorchVersion{std::stoi(match[2].str()), std::stoi(match[3].str())};
  return out;
}

// One rule's view of conditions; results are kept per node, so `a and b and c` chains and the
// regions of their operands are evaluated once each.
class Evaluator {
 public:
  Evaluator(const SemanticModel& model, const GuardRule& rule) : model_(model), rule_(rule) {}

  Split split(Node condition) {
    if (!condition) return unknown();
    if (auto found = memo_.find(condition.raw().id); found != memo_.end()) return found->second;
    Split result = compute(condition);  // may add entries itself
    memo_.emplace(condition.raw().id, result);
    return result;
  }

 private:
  Split compute(Node node) {
    std::string_view kind = node.kind();
    if (kind == "parenthesized_expression" && node.named_child_count() == 1) return split(node.named_child(0));
    if (kind == "not_operator") {
      Split inner = split(node.field("argument"));
      return {inner.when_false, inner.when_true};
    }
    if (kind == "boolean_operator") {
      Split left = split(node.field("left"));
      Split right = split(node.field("right"));
      Node op = node.field("operator");
      if (op && op.text() == "and")
        return {intersect(left.when_true, right.when_true), hull(left.when_false, right.when_false)};
      return {hull(left.when_true, right.when_true), intersect(left.when_false, right.when_false)};
    }
    if (kind == "comparison_operator") return comparison(node);
    if (kind == "call") return call(node);
    if (kind == "identifier" || kind == "attribute") {
      if (std::optional<Flag> named = flag(node.text()); named && named->version) {
        return compare(named->op, Literal{*named->version, false});
      }
    }
    return unknown();
  }

  static Split unknown() { return {{}, {}}; }

  Split comparison(Node node) {
    if (node.named_child_count() != 2) return unknown();
    Node left = node.named_child(0);
    Node right = node.named_child(1);
    std::optional<Op> op;
    for (uint32_t i = 0; i < node.child_count(); ++i) {
      Node child = node.child(i);
      if (!child.is_named()) op = op_from(child.text());
    }
    if (!op) return unknown();
    // The literal side first: a constant named for a release (`TORCH_VERSION_2_8_0`) also
    // looks like the torch version by its name.
    if (std::optional<Literal> value = release_value(right); value && is_torch_version(left))
      return compare(*op, *value);
    if (std::optional<Literal> value = release_value(left); value && is_torch_version(right))
      return compare(mirrored(*op), *value);
    return unknown();
  }

  Split call(Node node) {
    Node function = node.field("function");
    if (!function) return unknown();
    std::string_view name = function.text();
    if (name == "hasattr" || name == "getattr") return feature_test(node);
    std::optional<Flag> named = flag(name);
    if (!named || named->version) return unknown();
    if (std::optional<Literal> value = literal(first_argument(node))) return compare(named->op, *value);
    return unknown();
  }

  // `hasattr(torch_object, "name")`: only the rule's own old or new spelling tells versions apart.
  Split feature_test(Node call) {
    if (!rule_.feature_tests) return unknown();
    Node arguments = call.field("arguments");
    if (!arguments || arguments.named_child_count() < 2) return unknown();
    std::optional<std::string> object = model_.resolve(arguments.named_child(0));
    if (!object || !(*object == "torch" || object->starts_with("torch."))) return unknown();
    Node attribute = arguments.named_child(1);
    if (attribute.kind() != "string" || attribute.text().size() < 2) return unknown();
    std::string_view text = attribute.text();
    std::string_view name = text.substr(1, text.size() - 2);
    auto listed = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    Split new_side = compare(Op::GreaterEqual, Literal{rule_.release, false});
    if (listed(rule_.new_names)) return new_side;
    if (listed(rule_.old_names)) return {new_side.when_false, new_side.when_true};
    return unknown();
  }

  // A release: a literal, a name this file binds to one (`TORCH_2_8 = version.parse("2.8.0")`),
  // or a constant named for one, wherever it is defined (`from .versions import TORCH_VERSION_2_8_0`).
  std::optional<Literal> release_value(Node node) {
    if (std::optional<Literal> value = literal(node)) return value;
    if (!node || (node.kind() != "identifier" && node.kind() != "attribute")) return std::nullopt;
    if (std::optional<Literal> value = literal(assigned_value(node))) return value;
    std::optional<std::string> imported = model_.resolve(node);  // the name where it is defined
    return release_in_name(last_segment(imported ? std::string_view(*imported) : node.text()));
  }

  static std::optional<Literal> release_in_name(std::string_view name) {
    static const std::regex shape(R"(^_*(?:torch|pt|pytorch)_?(?:version|ver|v)?_?(\d+)_(\d+)(?:_(\d+))?$)");
    std::string text = lower(name);
    std::smatch match;
    if (!std::regex_match(text, match, shape)) return std::nullopt;
    return Literal{{std::stoi(match[1].str()), std::stoi(match[2].str())},
                   match[3].matched && std::stoi(match[3].str()) != 0};
  }

  // The value of `name` when one plain assignment in this file binds it where it is read.
  Node assigned_value(Node name) {
    if (!name || name.kind() != "identifier") return {};
    const Binding* binding = model_.lookup(name.text(), name);
    if (binding == nullptr || binding->kind == BindingKind::Import) return {};
    Node node = binding->node;
    if (node && node.kind() == "expression_statement" && node.named_child_count() == 1) node = node.named_child(0);
    if (node && node.kind() != "assignment") node = node.parent();
    if (!node || node.kind() != "assignment") return {};
    Node left = node.field("left");
    if (!left || left.kind() != "identifier" || left.text() != name.text()) return {};
    return node.field("right");
  }

  // A function of this file every `return` of which gives the torch version:
  // `def get_torch_version(): return version.parse(torch.__version__)`.
  bool returns_torch_version(Node call) {
    Node function = call.field("function");
    if (!function || function.kind() != "identifier") return false;
    const Binding* binding = model_.lookup(function.text(), function);
    if (binding == nullptr || binding->kind == BindingKind::Import) return false;
    Node definition = binding->node;
    if (!definition || definition.kind() != "function_definition") return false;
    bool any = false;
    bool all = true;
    for_each_node(definition.field("body"), [&](Node node) {
      std::string_view kind = node.kind();
      if (kind == "function_definition" || kind == "lambda" || kind == "class_definition") return WalkStep::Skip;
      if (kind != "return_statement") return WalkStep::Enter;
      any = true;
      all = all && node.named_child_count() == 1 && is_torch_version(node.named_child(0));
      return all ? WalkStep::Skip : WalkStep::Stop;
    });
    return any && all;
  }

  // The torch version, however spelled: `torch.__version__`, `version.parse(torch.__version__)`,
  // `torch_version`, `TORCH_VERSION`, `self._torch_ver`, a name this file binds to one of those,
  // a call of a helper that returns it or is named for it (`get_torch_version()`).
  bool is_torch_version(Node node) {
    if (!node || depth_ > 4) return false;
    ++depth_;
    bool found = names_torch_version(node);
    --depth_;
    return found;
  }

  bool names_torch_version(Node node) {
    std::string_view kind = node.kind();
    if (kind == "identifier" && is_torch_version(assigned_value(node))) return true;
    if (kind == "call") {
      Node function = node.field("function");
      static const std::regex helper(R"(torch_?ver(sion)?$)");
      if (function && std::regex_search(lower(last_segment(function.text())), helper)) return true;
      if (returns_torch_version(node)) return true;
    }
    if (kind == "identifier" || kind == "attribute") {
      if (std::optional<std::string> name = model_.resolve(node)) {
        if (*name == "torch.__version__" || *name == "torch.version.__version__") return true;
      }
      static const std::regex named(R"(torch_?ver(sion)?($|_))");
      if (std::regex_search(lower(last_segment(node.text())), named)) return true;
    }
    if (kind == "call" && is_version_call(node)) return is_torch_version(first_argument(node));
    std::string_view text = node.text();
    return text.size() < 200 && mentions(text, {"__version__"}) && mentions(text, {"torch"});
  }

  const SemanticModel& model_;
  const GuardRule& rule_;
  std::unordered_map<const void*, Split> memo_;
  int depth_ = 0;  // names followed to their values, so `a = b; b = a` ends
};

struct Region {
  uint32_t start, end;
  Versions versions;
  bool try_guard;
};

bool is_exit(Node statement) {
  std::string_view kind = statement.kind();
  return kind == "return_statement" || kind == "raise_statement" || kind == "continue_statement" ||
         kind == "break_statement";
}

// Whether a branch body always leaves the enclosing block (its last statement is an exit).
bool always_exits(Node block) {
  for (uint32_t i = block.named_child_count(); i > 0; --i) {
    Node statement = block.named_child(i - 1);
    if (statement.kind() == "comment") continue;
    return is_exit(statement);
  }
  return false;
}

class RegionCollector {
 public:
  RegionCollector(Evaluator& evaluator, const GuardRule& rule, const SemanticModel& model, std::vector<Region>& out)
      : evaluator_(evaluator), rule_(rule), model_(model), out_(out) {}

  void visit(Node node, Node parent) {
    std::string_view kind = node.kind();
    if (kind == "if_statement") return if_statement(node, parent);
    if (kind == "while_statement") {
      add(node.field("body"), evaluator_.split(node.field("condition")).when_true);
    } else if (kind == "conditional_expression" && node.named_child_count() == 3) {
      Split split = evaluator_.split(node.named_child(1));
      add(node.named_child(0), split.when_true);
      add(node.named_child(2), split.when_false);
    } else if (kind == "boolean_operator") {
      Split left = evaluator_.split(node.field("left"));
      Node op = node.field("operator");
      add(node.field("right"), op && op.text() == "and" ? left.when_true : left.when_false);
    } else if (kind == "try_statement" && rule_.feature_tests && catches_missing_names(node) &&
               (mentions_marker(node, rule_.try_markers) || optional_import(node))) {
      out_.push_back({node.start(), node.end(), {}, true});
    }
  }

 private:
  void add(Node node, Versions versions) {
    if (node && !is_any(versions)) out_.push_back({node.start(), node.end(), versions, false});
  }

  void fallback(Node node) {
    if (node) out_.push_back({node.start(), node.end(), {}, true});
  }

  void if_statement(Node node, Node parent) {
    Split first = evaluator_.split(node.field("condition"));
    Node body = node.field("consequence");
    add(body, first.when_true);
    if (rule_.feature_tests && is_any(first.when_true) && is_any(first.when_false)) {
      std::vector<Node> alternatives = node.children_of_field("alternative");
      Node otherwise = alternatives.size() == 1 && alternatives[0].kind() == "else_clause" ? alternatives[0] : Node();
      if (alternatives.empty() || otherwise)
        fallback(attribute_fallback(node.field("condition"), body, otherwise, model_));
    }
    Versions none_taken = first.when_false;  // every condition so far was false
    Versions falls_through{0, 0};            // where control reaches the statement after the `if`
    if (body && !always_exits(body)) falls_through = hull(falls_through, first.when_true);
    bool has_else = false;
    for (Node clause : node.children_of_field("alternative")) {
      if (clause.kind() == "elif_clause") {
        add(clause, none_taken);
        Split split = evaluator_.split(clause.field("condition"));
        Node consequence = clause.field("consequence");
        add(consequence, split.when_true);
        Versions taken = intersect(none_taken, split.when_true);
        if (consequence && !always_exits(consequence)) falls_through = hull(falls_through, taken);
        none_taken = intersect(none_taken, split.when_false);
      } else {
        has_else = true;
        add(clause, none_taken);
        Node else_body = clause.field("body");
        if (else_body && !always_exits(else_body)) falls_through = hull(falls_through, none_taken);
      }
    }
    if (!has_else) falls_through = hull(falls_through, none_taken);
    // An early return: the rest of the block only runs where no exiting branch was taken.
    if (parent && (parent.kind() == "block" || parent.kind() == "module") && !is_any(falls_through)) {
      out_.push_back({node.end(), parent.end(), falls_through, false});
    }
  }

  Evaluator& evaluator_;
  const GuardRule& rule_;
  const SemanticModel& model_;
  std::vector<Region>& out_;
};

// Regions nest (they are node ranges, or the tail of a block), so a sweep turns them into one
// state per stretch of bytes: the intersection of every region around it.
std::vector<std::pair<uint32_t, State>> flatten(std::vector<Region> regions) {
  std::stable_sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<std::pair<uint32_t, State>> table{{0, State{}}};
  std::vector<std::pair<uint32_t, State>> open;  // (end, state inside)
  auto close_until = [&](uint32_t offset) {
    while (!open.empty() && open.back().first <= offset) {
      uint32_t end = open.back().first;
      open.pop_back();
      table.emplace_back(end, open.empty() ? State{} : open.back().second);
    }
  };
  for (const Region& region : regions) {
    close_until(region.start);
    State outer = open.empty() ? State{} : open.back().second;
    State inner{intersect(outer.versions, region.versions), outer.in_try || region.try_guard};
    table.emplace_back(region.start, inner);
    open.emplace_back(region.end, inner);
  }
  close_until(UINT32_MAX);
  return table;
}

// `hasattr(x, ...)` / `getattr(x, ...)` somewhere in `condition` with `x` a torch module or
// object: `hasattr(model, "module")` is an ordinary test.
bool tests_torch_feature(Node condition, const SemanticModel& model) {
  if (condition.kind() == "call") {
    Node function = condition.field("function");
    if (function && function.kind() == "identifier" && (function.text() == "hasattr" || function.text() == "getattr")) {
      Node object = first_argument(condition);
      std::optional<std::string> name = object ? model.resolve(object) : std::nullopt;
      if (name && (*name == "torch" || name->starts_with("torch."))) return true;
    }
  }
  for (uint32_t i = 0; i < condition.named_child_count(); ++i) {
    if (tests_torch_feature(condition.named_child(i), model)) return true;
  }
  return false;
}

// `node`'s ancestors, outermost first, from one walk down the tree: ts_node_parent restarts
// from the root on every call, which made deeply nested expressions quadratic.
std::vector<Node> ancestors_of(Node node) {
  std::vector<Node> chain;
  TSNode root = ts_tree_root_node(node.raw().tree);
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode current = ts_tree_cursor_current_node(&cursor);
    if (ts_node_eq(current, node.raw())) break;
    chain.emplace_back(current, node.source());
    bool descended = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(child) <= node.start() && node.end() <= ts_node_end_byte(child) &&
            !(ts_node_start_byte(child) == ts_node_end_byte(child) && !ts_node_eq(child, node.raw()))) {
          descended = true;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    if (!descended) break;  // not found below: stop with what was collected
  }
  ts_tree_cursor_delete(&cursor);
  return chain;
}

}  // namespace

namespace {

// The nodes RegionCollector::visit acts on, with their parents, in pre-order: one walk with its
// own ancestor stack (ts_node_parent starts from the root on every call), no recursion, linear
// however deep the nesting. `work` counts the nodes visited.
GuardNodes collect_guard_nodes(Node root, const std::optional<Focus>& focus, uint64_t& work) {
  GuardNodes found;
  std::vector<Node> ancestors;  // the node at each depth on the way down to the current one
  for_each_node(root, [&](Node node, uint32_t depth) {
    ++work;
    ancestors.resize(depth);
    if (is_guard_kind(python_kind_id(node.symbol())))
      found.emplace_back(node, ancestors.empty() ? Node() : ancestors.back());
    ancestors.push_back(node);
    bool outside = focus && depth == 1 && !focus->overlaps(node.start(), node.end());
    return outside ? WalkStep::Skip : WalkStep::Enter;
  });
  return found;
}

}  // namespace

bool is_guard_kind(KindId kind) {
  static const std::vector<bool> kGuardKinds = [] {
    std::vector<bool> table(python_kind_count(), false);
    for (std::string_view name :
         {"if_statement", "while_statement", "conditional_expression", "boolean_operator", "try_statement"}) {
      table[python_kind_id(name)] = true;
    }
    return table;
  }();
  return kind < kGuardKinds.size() && kGuardKinds[kind];
}

GuardVerdict CompatGuards::verdict(uint32_t offset, const std::string& rule_key, const GuardRule& rule) {
  auto found = tables_.find(rule_key);
  if (found == tables_.end()) {
    if (!guard_nodes_) guard_nodes_ = collect_guard_nodes(root_, focus_, work_);
    Evaluator evaluator(model_, rule);
    std::vector<Region> regions;
    RegionCollector collector(evaluator, rule, model_, regions);
    for (const auto& [node, parent] : *guard_nodes_) {
      ++work_;
      collector.visit(node, parent);
    }
    found = tables_.emplace(rule_key, flatten(std::move(regions))).first;
  }
  const auto& table = found->second;
  auto after = std::upper_bound(table.begin(), table.end(), offset,
                                [](uint32_t value, const auto& entry) { return value < entry.first; });
  const State& state = std::prev(after)->second;
  if (state.versions.lo >= state.versions.hi || state.versions.hi <= key(rule.min_torch))
    return GuardVerdict::Unreachable;
  if (state.in_try) return GuardVerdict::Guarded;
  if (state.versions.hi <= key(rule.release)) return GuardVerdict::Guarded;
  if (rule.new_side_counts && state.versions.lo >= key(rule.release)) return GuardVerdict::Guarded;
  return GuardVerdict::Report;
}

bool is_compat_guarded(Node node, const SemanticModel& model) {
  GuardRule any_test;  // version tests against any release count here
  Evaluator evaluator(model, any_test);
  auto tests_torch = [&](Node condition) {
    Split split = evaluator.split(condition);
    return !is_any(split.when_true) || !is_any(split.when_false) || tests_torch_feature(condition, model);
  };
  std::vector<Node> chain = ancestors_of(node);
  Node child = node;
  for (auto it = chain.rbegin(); it != chain.rend(); child = *it, ++it) {
    Node parent = *it;
    std::string_view kind = parent.kind();
    if (kind == "try_statement" && catches_missing_names(parent)) return true;
    if (kind == "if_statement" || kind == "elif_clause") {
      Node condition = parent.field("condition");
      if (!(condition == child) && tests_torch(condition)) return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::python
