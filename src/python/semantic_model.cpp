// SPDX-License-Identifier: MIT
#include "torchmigrate/python/semantic_model.hpp"

#include <algorithm>
#include <vector>

#include "torchmigrate/python/star_exports.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::python {
namespace {

bool is_comprehension(std::string_view kind) {
  return kind == "list_comprehension" || kind == "set_comprehension" ||
         kind == "dictionary_comprehension" || kind == "generator_expression";
}

bool contains(Node outer, Node inner) {
  return outer.start() <= inner.start() && inner.end() <= outer.end();
}

bool is_handler(Node node) {
  std::string_view kind = node.kind();
  return kind == "except_clause" || kind == "except_group_clause" || kind == "else_clause";
}

// The compound statement `node` is a branch of, when `node` runs only on some paths: an `if`
// branch, a `try` body or handler, a loop body or its `else`, a `case`. Null otherwise.
Node branch_owner(Node node) {
  Node parent = node.parent();
  if (!parent) return {};
  std::string_view owner = parent.kind();
  if (owner == "if_statement") {
    if (node == parent.field("consequence") || node.kind() == "elif_clause" || node.kind() == "else_clause") {
      return parent;
    }
  } else if (owner == "try_statement") {
    if (node == parent.field("body") || is_handler(node)) return parent;
  } else if (owner == "for_statement" || owner == "while_statement") {
    if (node == parent.field("body") || node.kind() == "else_clause") return parent;
  } else if (node.kind() == "case_clause") {
    for (Node up = parent; up; up = up.parent()) {
      if (up.kind() == "match_statement") return up;
    }
  }
  return {};
}

// Two different branches of `owner` of which at most one runs.
bool exclusive(Node a, Node b, Node owner) {
  std::string_view kind = owner.kind();
  if (kind == "if_statement" || kind == "match_statement") return true;
  return kind == "try_statement" && is_handler(a) && is_handler(b);
}

enum class Reach { Never, Maybe, Always };

// Whether a binding made by `bound` is in effect at `use` (a null `use`: at the end of the
// scope that spans `scope`).
Reach reach(Node bound, Node use, TextRange scope) {
  Node branch;  // the outermost branch holding the binding but not the use
  for (Node node = bound; node; node = node.parent()) {
    if (use && contains(node, use)) break;
    if (node.start() <= scope.start && scope.end <= node.end()) break;
    if (branch_owner(node)) branch = node;
  }
  if (!branch) return Reach::Always;
  Node owner = branch_owner(branch);
  if (use && contains(owner, use)) {
    for (Node node = use; node && !(node == owner); node = node.parent()) {
      if (branch_owner(node) == owner && !(node == branch) && exclusive(branch, node, owner)) return Reach::Never;
    }
  }
  return Reach::Maybe;
}

void add_unique(std::vector<std::optional<std::string>>& into, const std::optional<std::string>& name) {
  if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
}

}  // namespace

SemanticModel::SemanticModel(Node root) {
  int module = new_scope(ScopeKind::Module, root.range(), -1);
  Collecting collecting(collecting_);
  collect(root, module);
}

SemanticModel::SemanticModel(Node root, Focus focus) : focus_(std::move(focus)) {
  int module = new_scope(ScopeKind::Module, root.range(), -1);
  Collecting collecting(collecting_);
  collect(root, module);
}

int SemanticModel::new_scope(ScopeKind kind, TextRange range, int parent, Node definition) const {
  Scope scope;
  scope.kind = kind;
  scope.range = range;
  scope.parent = parent;
  if (definition && may_read(range)) scope.unread = definition;
  scopes_.push_back(std::move(scope));
  int made = static_cast<int>(scopes_.size()) - 1;
  if (parent >= 0) {
    // After the siblings that start where it does: a tie goes to the later scope.
    std::vector<int>& siblings = scopes_[parent].children;
    auto at = std::upper_bound(siblings.begin(), siblings.end(), range.start,
                               [this](uint32_t value, int sibling) { return value < scopes_[sibling].range.start; });
    siblings.insert(at, made);
  }
  return made;
}

void SemanticModel::read_body(int scope) const {
  Node definition = scopes_[scope].unread;
  if (!definition) return;
  // Cleared first: reading resolves assignments, which asks for the scope being read.
  scopes_[scope].unread = {};
  ++bodies_read_;
  ScopeKind kind = scopes_[scope].kind;
  if (kind == ScopeKind::Function || kind == ScopeKind::Lambda) {
    // The parameters too: most functions of a large file are never asked about.
    if (Node parameters = definition.field("parameters")) bind_parameters(parameters, scope);
  }
  Collecting collecting(collecting_);
  if (Node body = definition.field("body")) collect(body, scope);
}

void SemanticModel::bind(int scope, std::string_view name, Binding binding) const {
  scopes_[scope].bindings[std::string(name)].push_back(std::move(binding));
}

namespace {

// The kinds collect() does more for than visit their children: most nodes of a body are not.
bool binds_or_scopes(KindId kind) {
  static const std::vector<bool> kKinds = [] {
    std::vector<bool> table(python_kind_count(), false);
    for (std::string_view name :
         {"import_statement", "import_from_statement", "function_definition", "lambda", "class_definition",
          "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression", "assignment",
          "augmented_assignment", "for_statement", "for_in_clause", "named_expression", "as_pattern",
          "except_clause"}) {
      table[python_kind_id(name)] = true;
    }
    return table;
  }();
  return kKinds[kind];
}

}  // namespace

void SemanticModel::collect(Node node, int scope) const {
  if (!binds_or_scopes(python_kind_id(node.symbol()))) {
    for_each_named_child(node, [&](Node child) { collect(child, scope); });
    return;
  }
  std::string_view kind = node.kind();
  if (kind == "import_statement" || kind == "import_from_statement") {
    bind_import(node, scope);
    return;
  }
  if (kind == "function_definition") {
    bind(scope, node.field("name").text(), {BindingKind::Local, {}, node.start(), node});
    collect_function(node, scope, ScopeKind::Function);
    return;
  }
  if (kind == "lambda") {
    collect_function(node, scope, ScopeKind::Lambda);
    return;
  }
  if (kind == "class_definition") {
    bind(scope, node.field("name").text(), {BindingKind::Local, {}, node.start(), node});
    if (Node bases = node.field("superclasses")) collect(bases, scope);
    if (Node body = node.field("body")) new_scope(ScopeKind::Class, body.range(), scope, node);
    return;
  }
  if (is_comprehension(kind)) {
    int inner = new_scope(ScopeKind::Comprehension, node.range(), scope);
    for_each_named_child(node, [&](Node child) { collect(child, inner); });
    return;
  }
  if (kind == "assignment") {
    Node left = node.field("left");
    Node right = node.field("right");
    if (right) collect(right, scope);
    if (left) {
      // `f = torch.export.export` makes `f` an alias; anything else shadows.
      std::optional<std::string> target;
      std::vector<std::optional<std::string>> alternatives;
      std::string_view from = right ? right.kind() : std::string_view();
      if (left.kind() == "identifier" && (from == "identifier" || from == "attribute")) target = resolve(right);
      // `f = a if c else b`, or `f = g` where `g` has several bindings: remember each.
      if (left.kind() == "identifier" && (from == "identifier" || from == "attribute" ||
                                          from == "conditional_expression" || from == "parenthesized_expression")) {
        alternatives = resolve_all(right);
        if (alternatives.size() == 1 && from != "conditional_expression") alternatives.clear();
      }
      if (target || !alternatives.empty()) {
        Binding binding{target ? BindingKind::Alias : BindingKind::Local, target.value_or(""), node.end(), node};
        binding.alternatives = std::move(alternatives);
        bind(scope, left.text(), std::move(binding));
      } else {
        bind_target(left, scope, node, node.end());
      }
    }
    return;
  }
  // Loop, `with ... as`, `except ... as` and walrus targets are bound before the code that
  // follows them runs.
  auto bind_field = [&](const char* field) {
    if (Node target = node.field(field)) bind_target(target, scope, node, target.end());
  };
  if (kind == "augmented_assignment") {
    bind_target(node.field("left"), scope, node, node.end());
  } else if (kind == "for_statement" || kind == "for_in_clause") {
    bind_field("left");
  } else if (kind == "named_expression") {
    bind_field("name");
  } else if (kind == "as_pattern" || kind == "except_clause") {
    bind_field("alias");
  }
  for_each_named_child(node, [&](Node child) { collect(child, scope); });
}

void SemanticModel::collect_function(Node node, int scope, ScopeKind kind) const {
  // Defaults and annotations run in the enclosing scope; the body in its own.
  Node parameters = node.field("parameters");
  if (parameters) collect(parameters, scope);
  Node body = node.field("body");
  int inner = new_scope(kind, body ? body.range() : node.range(), scope, body ? node : Node());
  if (!body && parameters) bind_parameters(parameters, inner);
}

void SemanticModel::bind_parameters(Node parameters, int scope) const {
  for (uint32_t i = 0; i < parameters.named_child_count(); ++i) {
    Node parameter = parameters.named_child(i);
    std::string_view kind = parameter.kind();
    Node name;
    if (kind == "identifier") {
      name = parameter;
    } else if (kind == "default_parameter" || kind == "typed_default_parameter") {
      name = parameter.field("name");
    } else {  // typed_parameter, list_splat_pattern, dictionary_splat_pattern
      for (uint32_t j = 0; j < parameter.named_child_count() && !name; ++j) {
        Node child = parameter.named_child(j);
        if (child.kind() == "identifier") name = child;
        if (child.kind() == "list_splat_pattern" || child.kind() == "dictionary_splat_pattern") {
          name = child.named_child(0);
        }
      }
    }
    if (name && name.kind() == "identifier") {
      bind(scope, name.text(), {BindingKind::Local, {}, scopes_[scope].range.start, parameter});
    }
  }
}

void SemanticModel::bind_target(Node target, int scope, Node statement, uint32_t position) const {
  if (!target) return;
  std::string_view kind = target.kind();
  if (kind == "identifier") {
    bind(scope, target.text(), {BindingKind::Local, {}, position, statement});
    return;
  }
  if (kind == "attribute" || kind == "subscript") return;  // binds no name
  for (uint32_t i = 0; i < target.named_child_count(); ++i) {
    bind_target(target.named_child(i), scope, statement, position);
  }
}

void SemanticModel::bind_import(Node statement, int scope) const {
  if (scope == 0) module_imports_.push_back(statement);
  uint32_t position = statement.end();
  if (statement.kind() == "import_statement") {
    for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
      Node item = statement.named_child(i);
      if (item.kind() == "aliased_import") {
        bind(scope, item.field("alias").text(),
             {BindingKind::Import, std::string(item.field("name").text()), position, statement});
      } else if (item.kind() == "dotted_name") {
        // `import a.b` binds `a`, and `a.b.c` then resolves through it.
        std::string_view dotted = item.text();
        std::string_view head = dotted.substr(0, dotted.find('.'));
        bind(scope, head, {BindingKind::Import, std::string(head), position, statement});
      }
    }
    return;
  }
  Node module = statement.field("module_name");
  // Relative imports refer to the project's own modules, never to torch.
  bool relative = !module || module.kind() == "relative_import";
  std::string base = relative ? std::string() : std::string(module.text());
  // `from torch.export import *` binds the names of the module's `__all__` (star_exports.hpp).
  for (uint32_t i = 0; !relative && base.starts_with("torch") && i < statement.named_child_count(); ++i) {
    if (statement.named_child(i).kind() != "wildcard_import") continue;
    for (std::string_view name : star_import_names(base)) {
      bind(scope, name, {BindingKind::Import, base + "." + std::string(name), position, statement});
    }
  }
  for (Node item : statement.children_of_field("name")) {
    Node name = item.kind() == "aliased_import" ? item.field("name") : item;
    Node bound = item.kind() == "aliased_import" ? item.field("alias") : item;
    if (relative) {
      bind(scope, bound.text(), {BindingKind::Local, {}, position, statement});
    } else {
      bind(scope, bound.text(), {BindingKind::Import, base + "." + std::string(name.text()), position, statement});
    }
  }
}

int SemanticModel::innermost_scope(uint32_t offset) const {
  // Scopes nest like the nodes they come from, and siblings do not overlap: the child that may
  // hold `offset` is the last one starting at or before it (an empty one may hide it).
  int best = 0;
  for (;;) {
    const std::vector<int>& children = scopes_[best].children;
    auto after = std::upper_bound(children.begin(), children.end(), offset,
                                  [this](uint32_t value, int child) { return value < scopes_[child].range.start; });
    int inner = -1;
    for (auto it = after; it != children.begin();) {
      const TextRange& range = scopes_[*--it].range;
      if (offset < range.end) inner = *it;
      if (inner >= 0 || !range.empty()) break;
    }
    if (inner < 0) return best;
    best = inner;
  }
}

int SemanticModel::scope_at(uint32_t offset) const {
  // Reading a body may make scopes nested in it that hold `offset` too.
  for (;;) {
    int best = innermost_scope(offset);
    if (!scopes_[best].unread) return best;
    read_body(best);
  }
}

std::vector<const Scope*> SemanticModel::enclosing_scopes(uint32_t offset) const {
  std::vector<const Scope*> chain;
  for (int index = scope_at(offset); index >= 0; index = scopes_[index].parent) chain.push_back(&scopes_[index]);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

const std::deque<Scope>& SemanticModel::all_scopes() const {
  // Indexed: reading a body appends the scopes nested in it, which the loop then reads.
  for (size_t i = 0; i < scopes_.size(); ++i) read_body(static_cast<int>(i));
  return scopes_;
}

const Binding* SemanticModel::binding_created_by(std::string_view name, Node statement) const {
  const Scope& scope = scopes_[scope_at(statement.start())];
  auto it = scope.bindings.find(std::string(name));
  if (it == scope.bindings.end()) return nullptr;
  for (const Binding& binding : it->second) {
    if (binding.node == statement) return &binding;
  }
  return nullptr;
}

const Binding* SemanticModel::lookup_in(const Scope& scope, std::string_view name, uint32_t position,
                                        bool deferred) const {
  auto it = scope.bindings.find(std::string(name));
  if (it == scope.bindings.end() || it->second.empty()) return nullptr;
  const std::vector<Binding>& bindings = it->second;
  // A function body runs after the enclosing module has finished executing, so it sees
  // the last binding; code at the same level sees the last binding before it.
  if (deferred) return &bindings.back();
  const Binding* found = nullptr;
  for (const Binding& binding : bindings) {
    if (binding.position <= position) found = &binding;
  }
  // In a function, any assignment makes the name local for the whole body.
  if (found == nullptr && scope.kind != ScopeKind::Module && scope.kind != ScopeKind::Class) {
    return &bindings.front();
  }
  return found;
}

const Binding* SemanticModel::lookup(std::string_view name, Node at) const {
  uint32_t position = at.start();
  int index = scope_at(position);
  bool deferred = false;
  bool first = true;
  while (index >= 0) {
    const Scope& scope = scopes_[index];
    // Class bodies are not visible from the functions nested in them.
    if (first || scope.kind != ScopeKind::Class) {
      if (const Binding* binding = lookup_in(scope, name, position, deferred)) return binding;
    }
    if (scope.kind == ScopeKind::Function || scope.kind == ScopeKind::Lambda) deferred = true;
    first = false;
    index = scope.parent;
  }
  return nullptr;
}

std::vector<const Binding*> SemanticModel::reaching_in(const Scope& scope, std::string_view name, Node at,
                                                       bool deferred) const {
  auto it = scope.bindings.find(std::string(name));
  if (it == scope.bindings.end() || it->second.empty()) return {};
  const std::vector<Binding>& bindings = it->second;
  // Latest first, until one that certainly ran; a deferred use sees the end of the scope.
  std::vector<const Binding*> found;
  for (auto binding = bindings.rbegin(); binding != bindings.rend(); ++binding) {
    if (!deferred && binding->position > at.start()) continue;
    Reach how = reach(binding->node, deferred ? Node() : at, scope.range);
    if (how == Reach::Never) continue;
    found.push_back(&*binding);
    if (how == Reach::Always) break;
  }
  // In a function, any assignment makes the name local for the whole body.
  if (found.empty() && !deferred && scope.kind != ScopeKind::Module && scope.kind != ScopeKind::Class) {
    found.push_back(&bindings.front());
  }
  return found;
}

std::vector<const Binding*> SemanticModel::reaching_bindings(std::string_view name, Node at) const {
  int index = scope_at(at.start());
  bool deferred = false;
  bool first = true;
  while (index >= 0) {
    const Scope& scope = scopes_[index];
    if (first || scope.kind != ScopeKind::Class) {
      std::vector<const Binding*> found = reaching_in(scope, name, at, deferred);
      if (!found.empty()) return found;
    }
    if (scope.kind == ScopeKind::Function || scope.kind == ScopeKind::Lambda) deferred = true;
    first = false;
    index = scope.parent;
  }
  return {};
}

std::vector<std::optional<std::string>> SemanticModel::resolve_all(Node expression) const {
  std::vector<std::optional<std::string>> names;
  std::string_view kind = expression ? expression.kind() : std::string_view();
  if (kind == "identifier") {
    for (const Binding* binding : reaching_bindings(expression.text(), expression)) {
      if (!binding->alternatives.empty()) {
        for (const std::optional<std::string>& name : binding->alternatives) add_unique(names, name);
      } else if (binding->kind == BindingKind::Local) {
        add_unique(names, std::nullopt);
      } else {
        add_unique(names, binding->qualified_name);
      }
    }
  } else if (kind == "attribute") {
    std::string attribute(expression.field("attribute").text());
    for (const std::optional<std::string>& base : resolve_all(expression.field("object"))) {
      add_unique(names, base ? std::optional<std::string>(*base + "." + attribute) : std::nullopt);
    }
  } else if (kind == "parenthesized_expression" && expression.named_child_count() == 1) {
    return resolve_all(expression.named_child(0));
  } else if (kind == "conditional_expression" && expression.named_child_count() == 3) {
    // `a if condition else b`: the arms are the first and last children.
    for (uint32_t arm : {0u, 2u}) {
      for (const std::optional<std::string>& name : resolve_all(expression.named_child(arm))) add_unique(names, name);
    }
  }
  if (names.empty()) names.emplace_back();
  return names;
}

std::vector<std::optional<std::string>> SemanticModel::resolve_call_all(Node call) const {
  if (!call || call.kind() != "call") return {std::nullopt};
  return resolve_all(call.field("function"));
}

std::optional<std::string> SemanticModel::resolve(Node expression) const {
  if (!expression) return std::nullopt;
  std::string_view kind = expression.kind();
  if (kind == "identifier" || kind == "attribute") {
    // Answers never change once the bodies they need are read, which a question does first; while
    // a body is read, its later bindings are not there yet, so those answers are not kept.
    uint64_t key = static_cast<uint64_t>(expression.start()) << 32 | expression.end();
    if (auto known = resolved_.find(key); known != resolved_.end()) return known->second;
    bool keep = collecting_ == 0;
    std::optional<std::string> answer;
    if (kind == "identifier") {
      const Binding* binding = lookup(expression.text(), expression);
      if (binding != nullptr && binding->kind != BindingKind::Local) answer = binding->qualified_name;
    } else if (std::optional<std::string> base = resolve(expression.field("object"))) {
      answer = *base + "." + std::string(expression.field("attribute").text());
    }
    if (!keep) return answer;
    return resolved_.emplace(key, std::move(answer)).first->second;
  }
  if (kind == "parenthesized_expression" && expression.named_child_count() == 1) {
    return resolve(expression.named_child(0));
  }
  return std::nullopt;
}

std::optional<std::string> SemanticModel::resolve_call(Node call) const {
  if (!call || call.kind() != "call") return std::nullopt;
  return resolve(call.field("function"));
}

}  // namespace torchmigrate::python
