// SPDX-License-Identifier: MIT
// Scopes, bindings and qualified-name resolution for one Python module: answers
// "what does this name, attribute chain or call refer to?" through the file's imports.
// The module's own statements are read at once; a function or class body is read the first
// time a question is asked about a position inside it, so a large file whose checks ask about
// a few lines pays for those lines' scopes only.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "torchmigrate/python/focus.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

enum class BindingKind {
  Import,  // `import a.b`, `import a.b as c`, `from a import b`: refers to a qualified name
  Alias,   // `f = torch.export.export`: a plain assignment from something that resolves
  Local,   // def, class, parameter, any other assignment or target: shadows imports
};

struct Binding {
  BindingKind kind = BindingKind::Local;
  std::string qualified_name;  // empty for Local
  uint32_t position = 0;       // byte offset where the binding takes effect
  Node node;                   // the statement or target that binds
  // For `f = a if c else b` (and `f = g` where `g` has several possible bindings): what each
  // alternative refers to, nullopt for one that is not an import. Empty when `kind` says it all.
  std::vector<std::optional<std::string>> alternatives = {};
};

enum class ScopeKind { Module, Class, Function, Lambda, Comprehension };

struct Scope {
  ScopeKind kind = ScopeKind::Module;
  TextRange range;
  int parent = -1;
  // The scopes made directly inside this one, by where they start: finding the scope of a node
  // walks down them instead of testing every scope of the file (thousands in a large module).
  std::vector<int> children;
  std::unordered_map<std::string, std::vector<Binding>> bindings;  // by name, in source order
  // The def, lambda or class whose body (and a function's parameters) is not read yet; null once
  // read. The definition, not the body: finding a body's parent walks down from the root.
  Node unread;
};

// Not thread-safe: a question may read a body. Scopes never move once made, so a `Scope&` or a
// `Binding*` it handed out stays valid while later questions read more bodies.
class SemanticModel {
 public:
  explicit SemanticModel(Node root);
  // A model that answers only for nodes inside `focus` (an editor's changed statements): the
  // bodies of functions and classes outside it are never read, not even by `all_scopes`.
  // Module-level bindings are all there, so every answer about a node inside `focus` is the
  // whole model's.
  SemanticModel(Node root, Focus focus);

  // Qualified name of an identifier, attribute chain (`te.export_for_inference`) or of a
  // call's callee. nullopt when it does not come from an import (a local, a builtin, unknown).
  [[nodiscard]] std::optional<std::string> resolve(Node expression) const;
  [[nodiscard]] std::optional<std::string> resolve_call(Node call) const;
  // The binding `name` refers to at `node`'s position, following Python's scope rules.
  [[nodiscard]] const Binding* lookup(std::string_view name, Node at) const;
  // Every binding of `name` that may be in effect at `at`, latest first: both branches of an
  // `if`/`else`, a `try` body and its handlers, a loop body and what preceded it. A binding in
  // a branch that excludes `at` (another branch of the same `if`, handler or `case`) is left
  // out, which `lookup` does not do.
  [[nodiscard]] std::vector<const Binding*> reaching_bindings(std::string_view name, Node at) const;
  // What an expression may refer to, one entry per possibility (deduplicated): nullopt for a
  // possibility that is not an import (a local, a builtin, unknown). Conditional expressions
  // contribute both arms. Never empty.
  [[nodiscard]] std::vector<std::optional<std::string>> resolve_all(Node expression) const;
  [[nodiscard]] std::vector<std::optional<std::string>> resolve_call_all(Node call) const;
  // The innermost scope holding `offset` (its body read).
  [[nodiscard]] int scope_at(uint32_t offset) const;
  [[nodiscard]] const Scope& scope(int index) const { return scopes_[index]; }
  [[nodiscard]] const Scope& module_scope() const { return scopes_.front(); }
  // The scopes whose names code at `offset` can see, outermost (the module) first; a class
  // scope is listed, though only code directly in its body sees it.
  [[nodiscard]] std::vector<const Scope*> enclosing_scopes(uint32_t offset) const;
  // Every scope of the file, each body read first (within the focus, when there is one).
  [[nodiscard]] const std::deque<Scope>& all_scopes() const;
  // The binding of `name` that `statement` itself created (an import, def or assignment).
  [[nodiscard]] const Binding* binding_created_by(std::string_view name, Node statement) const;
  // The import statements of the module scope (not of function or class bodies), so rules can
  // rewrite `from x import old` in place.
  [[nodiscard]] const std::vector<Node>& module_imports() const { return module_imports_; }
  // How many bodies have been read: what a question cost.
  [[nodiscard]] size_t bodies_read() const { return bodies_read_; }

 private:
  void collect(Node node, int scope) const;
  [[nodiscard]] bool may_read(TextRange body) const { return !focus_ || focus_->overlaps(body.start, body.end); }
  void read_body(int scope) const;
  void collect_function(Node node, int scope, ScopeKind kind) const;
  void bind_target(Node target, int scope, Node statement, uint32_t position) const;
  void bind_parameters(Node parameters, int scope) const;
  void bind(int scope, std::string_view name, Binding binding) const;
  void bind_import(Node statement, int scope) const;
  int new_scope(ScopeKind kind, TextRange range, int parent, Node definition = {}) const;
  [[nodiscard]] int innermost_scope(uint32_t offset) const;
  [[nodiscard]] const Binding* lookup_in(const Scope& scope, std::string_view name, uint32_t position,
                                         bool deferred) const;
  [[nodiscard]] std::vector<const Binding*> reaching_in(const Scope& scope, std::string_view name, Node at,
                                                        bool deferred) const;

  // Mutable: questions read bodies. A deque, so scopes stay where they are as more are made.
  mutable std::deque<Scope> scopes_;
  mutable std::vector<Node> module_imports_;
  mutable size_t bodies_read_ = 0;
  // resolve()'s answers by node (start and end byte; an identifier and an attribute never share
  // both): several checks resolve the same calls, and a chain resolves its prefixes.
  mutable std::unordered_map<uint64_t, std::optional<std::string>> resolved_;
  mutable int collecting_ = 0;  // bodies being read, nested
  struct Collecting {
    explicit Collecting(int& depth) : depth_(depth) { ++depth_; }
    ~Collecting() { --depth_; }
    Collecting(const Collecting&) = delete;
    Collecting& operator=(const Collecting&) = delete;
    int& depth_;
  };
  std::optional<Focus> focus_;
};

}  // namespace torchmigrate::python
