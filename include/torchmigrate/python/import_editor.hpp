// SPDX-License-Identifier: MIT
// The one place fixes edit import statements: add a name, rename what a name imports, remove a
// name, move an import to another module. Every operation is rebind-aware (it never makes a name
// mean something else somewhere in the file), reuses an existing import of the same object, and
// keeps the file's style: parenthesised lists, one name per line, trailing commas, aliases, CRLF.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::python {

// The edits of one import change and the name the code spells to use the imported object, or
// why the change cannot be made safely.
struct ImportChange {
  std::vector<Edit> edits;
  std::string name;      // `maybe_mark_dynamic`, or the alias that keeps being used
  std::string conflict;  // non-empty: no change is possible, and this says why (for a message)

  explicit operator bool() const { return conflict.empty(); }
};

class ImportEditor {
 public:
  explicit ImportEditor(const SemanticModel& model) : model_(model) {}

  // Makes `module.name` usable at `at` (any node of the file). An import of it visible there is
  // reused. Otherwise `name` joins a `from module import ...` statement: `next_to` (one of its
  // names, the new one goes right after it) or the first such statement at module level; without
  // one, a new statement goes after the module's docstring, `__future__` imports and leading
  // imports. Refused when `name` already means something else at `at` or where it would be bound.
  [[nodiscard]] ImportChange import_name(std::string_view module, std::string_view name, Node at,
                                         Node next_to = {}) const;

  // Makes the `from` import `item` (`old` or `old as alias`) import `new_name` from the same
  // module. Without an alias the bound name changes too, and the caller renames `uses` (the
  // references to the old name) to `ImportChange::name`; they are checked for shadowing. An
  // earlier import of the same object in the same scope is reused: the item is removed instead.
  // Refused when the bound name is also assigned elsewhere in its scope, or `new_name` already
  // names something else.
  [[nodiscard]] ImportChange rename_name(Node item, std::string_view new_name, const std::vector<Node>& uses) const;

  // Removes one name (dotted_name or aliased_import) of an import statement, with its comma; the
  // statement goes with its last name. nullopt when the statement shares its line with other code.
  [[nodiscard]] static std::optional<Edit> remove_name(Node item);

  // Points an import at another module, keeping what it binds: the module of `from m import ...`
  // (`target` is the statement) or the module of `import m as alias` (`target` is the aliased item).
  [[nodiscard]] static Edit replace_module(Node target, std::string_view new_module);

  // `statement` rewritten by `edits` (inside it) in a `try`, with the statement as it was in an
  // `except ImportError:` fallback: for a module that moved, importable from its new place on
  // new releases and from its old one on old releases. nullopt when the statement shares its
  // line with other code.
  [[nodiscard]] static std::optional<Edit> with_fallback(Node statement, const std::vector<Edit>& edits);

  // Moves `items` (some, not all, of the `from` import `statement`'s names, aliases kept) into
  // a `from new_module import ...` statement on the line below it. nullopt when the statement
  // shares its line with other code or holds a comment the edit would drop or move
  // (import_split.cpp).
  [[nodiscard]] static std::optional<std::vector<Edit>> split_off(Node statement, const std::vector<Node>& items,
                                                                  std::string_view new_module);
  // The item (dotted_name or aliased_import) of a `from` import and the name it binds.
  [[nodiscard]] static Node imported_name(Node item);
  [[nodiscard]] static Node bound_name(Node item);

 private:
  [[nodiscard]] std::optional<std::string> visible_import(const std::string& qualified, Node at) const;
  [[nodiscard]] bool bound_in_scope(std::string_view name, uint32_t offset, const std::string& except_import) const;
  [[nodiscard]] Node from_statement_of(std::string_view module) const;

  const SemanticModel& model_;
};

}  // namespace torchmigrate::python
