// SPDX-License-Identifier: MIT
// Scopes, bindings and qualified-name resolution for one Python module: answers
// "what does this name, attribute chain or call refer to?" through the file's imports.
#pragma once

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
  std::unordered_map<std::string, std::vector<Binding>> bindings;  // by name, in source order
};

class SemanticModel {
 public:
  explicit SemanticModel(Node root);
  // A model that answers only for nodes inside `focus` (an editor's changed statements): the
  // bodies of functions and classes outside it are not read. Module-level bindings are all
  // there, so every answer about a node inside `focus` is the whole model's.
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
  [[nodiscard]] int scope_at(uint32_t offset) const;
  // The binding of `name` that `statement` itself created (an import, def or assignment).
  [[nodiscard]] const Binding* binding_created_by(std::string_view name, Node statement) const;
  [[nodiscard]] const std::vector<Scope>& scopes() const { return scopes_; }
  // Every import statement, so rules can rewrite `from x import old` in place.
  [[nodiscard]] const std::vector<Node>& import_statements() const { return imports_; }

 private:
  void collect(Node node, int scope);
  [[nodiscard]] bool read_body(Node body) const { return !focus_ || focus_->overlaps(body.start(), body.end()); }
  void collect_function(Node node, int scope, ScopeKind kind);
  void bind_target(Node target, int scope, Node statement, uint32_t position);
  void bind_parameters(Node parameters, int scope);
  void bind(int scope, std::string_view name, Binding binding);
  void bind_import(Node statement, int scope);
  int new_scope(ScopeKind kind, TextRange range, int parent);
  [[nodiscard]] const Binding* lookup_in(const Scope& scope, std::string_view name, uint32_t position,
                                         bool deferred) const;
  [[nodiscard]] std::vector<const Binding*> reaching_in(const Scope& scope, std::string_view name, Node at,
                                                        bool deferred) const;

  std::vector<Scope> scopes_;
  std::vector<Node> imports_;
  std::optional<Focus> focus_;
};

}  // namespace torchmigrate::python
