// SPDX-License-Identifier: MIT
#include "torchmigrate/python/import_editor.hpp"

#include <tuple>

#include "torchmigrate/python/statement_edits.hpp"

namespace torchmigrate::python {
namespace {

bool is_import(Node statement) {
  std::string_view kind = statement.kind();
  return kind == "import_statement" || kind == "import_from_statement" || kind == "future_import_statement";
}

bool is_docstring(Node statement) {
  return statement.kind() == "expression_statement" && statement.named_child_count() == 1 &&
         statement.named_child(0).kind() == "string";
}

bool has_wildcard(Node statement) {
  for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
    if (statement.named_child(i).kind() == "wildcard_import") return true;
  }
  return false;
}

bool is_parenthesised(Node statement) {
  for (uint32_t i = 0; i < statement.child_count(); ++i) {
    if (statement.child(i).kind() == "(") return true;
  }
  return false;
}

// Appended piece by piece: GCC 12 warns wrongly (-Wrestrict) about `"`" + std::string(...)`.
ImportChange refused(std::string_view name, std::string_view why) {
  std::string reason("`");
  reason.append(name).append("` ").append(why);
  return {{}, {}, std::move(reason)};
}

ImportChange taken(std::string_view name) { return refused(name, "already names something else in this file"); }

// `name` added to the list of `statement` right after `after`, one name per line when the list
// is written that way.
std::vector<Edit> add_to_list(Node statement, Node after, std::string_view name) {
  std::string_view source = statement.source();
  uint32_t line = line_start(source, after.start());
  Node comma = after.next_sibling();
  bool has_comma = comma && comma.kind() == ",";
  uint32_t line_end = has_comma ? comma.end() : after.end();
  if (is_parenthesised(statement) && line > statement.start() && is_blank(source.substr(line, after.start() - line)) &&
      rest_of_line_is_empty(source, line_end) && next_line_start(source, line_end) < statement.end()) {
    std::string indent(source.substr(line, after.start() - line));
    std::string_view newline = newline_of(source);
    // A list without a trailing comma stays without one.
    std::vector<Edit> edits;
    if (!has_comma) edits.push_back(Edit::insert(after.end(), ","));
    std::string text = indent + std::string(name) + (has_comma ? "," : "") + std::string(newline);
    edits.push_back(Edit::insert(next_line_start(source, line_end), std::move(text)));
    return edits;
  }
  return {Edit::insert(after.end(), ", " + std::string(name))};
}

// A new `from module import name` after the docstring, `__future__` and leading imports.
Edit new_statement(Node at, std::string_view module, std::string_view name) {
  Node root = at;
  while (root.parent()) root = root.parent();
  std::string_view source = root.source();
  std::string_view newline = newline_of(source);
  std::vector<Node> statements = statements_of(root);
  size_t i = 0;
  Node last;
  if (i < statements.size() && is_docstring(statements[i])) last = statements[i++];
  while (i < statements.size() && is_import(statements[i])) last = statements[i++];
  std::string text = "from " + std::string(module) + " import " + std::string(name) + std::string(newline);
  uint32_t position = static_cast<uint32_t>(source.size());
  if (last) {
    position = next_line_start(source, last.end());
  } else if (!statements.empty()) {
    position = line_start(source, statements.front().start());
  }
  // The last line of a file may lack its newline.
  if (position == source.size() && !source.empty() && source.back() != '\n') text.insert(0, newline);
  return Edit::insert(position, std::move(text));
}

}  // namespace

Node ImportEditor::imported_name(Node item) { return item.kind() == "aliased_import" ? item.field("name") : item; }

Node ImportEditor::bound_name(Node item) { return item.kind() == "aliased_import" ? item.field("alias") : item; }

std::optional<std::string> ImportEditor::visible_import(const std::string& qualified, Node at) const {
  // The earliest such import, so the answer does not depend on hash-map order.
  const Binding* best = nullptr;
  std::optional<std::string> best_name;
  // Only the scopes around `at` hold bindings visible there.
  for (const Scope* scope : model_.enclosing_scopes(at.start())) {
    for (const auto& [name, bindings] : scope->bindings) {
      for (const Binding& binding : bindings) {
        if (binding.kind != BindingKind::Import || binding.qualified_name != qualified ||
            model_.lookup(name, at) != &binding) {
          continue;
        }
        if (best != nullptr && std::tie(best->position, *best_name) <= std::tie(binding.position, name)) continue;
        best = &binding;
        best_name = name;
      }
    }
  }
  return best_name;
}

bool ImportEditor::bound_in_scope(std::string_view name, uint32_t offset, const std::string& except_import) const {
  const Scope& scope = model_.scope(model_.scope_at(offset));
  auto it = scope.bindings.find(std::string(name));
  if (it == scope.bindings.end()) return false;
  for (const Binding& binding : it->second) {
    if (binding.kind != BindingKind::Import || binding.qualified_name != except_import) return true;
  }
  return false;
}

Node ImportEditor::from_statement_of(std::string_view module) const {
  for (Node statement : model_.module_imports()) {
    if (statement.kind() != "import_from_statement" || !statement.parent() || statement.parent().kind() != "module" ||
        has_wildcard(statement)) {
      continue;
    }
    Node name = statement.field("module_name");
    if (name && name.kind() == "dotted_name" && name.text() == module) return statement;
  }
  return {};
}

ImportChange ImportEditor::import_name(std::string_view module, std::string_view name, Node at, Node next_to) const {
  std::string qualified = std::string(module) + "." + std::string(name);
  if (std::optional<std::string> existing = visible_import(qualified, at)) return {{}, *existing, {}};
  Node statement = next_to ? next_to.parent() : from_statement_of(module);
  // A new statement is bound at module level, where the file's first byte is.
  uint32_t landing = statement ? statement.start() : 0;
  if (model_.lookup(name, at) != nullptr || bound_in_scope(name, landing, {})) return taken(name);
  if (!statement) return {{new_statement(at, module, name)}, std::string(name), {}};
  Node after = next_to ? next_to : statement.children_of_field("name").back();
  return {add_to_list(statement, after, name), std::string(name), {}};
}

ImportChange ImportEditor::rename_name(Node item, std::string_view new_name, const std::vector<Node>& uses) const {
  Node statement = item.parent();
  Node bound = bound_name(item);
  const Scope& scope = model_.scope(model_.scope_at(item.start()));
  // `except ImportError: old = None` rebinds the name: renaming only the import would leave the
  // other branch and every later use pointing at different things.
  if (auto it = scope.bindings.find(std::string(bound.text())); it != scope.bindings.end() && it->second.size() > 1) {
    return refused(bound.text(), "is also assigned elsewhere in the same scope");
  }
  Edit rename = Edit::replace(imported_name(item).range(), std::string(new_name));
  if (item.kind() == "aliased_import") return {{rename}, std::string(bound.text()), {}};

  std::string qualified = std::string(statement.field("module_name").text()) + "." + std::string(new_name);
  if (bound_in_scope(new_name, item.start(), qualified)) return taken(new_name);
  for (Node use : uses) {
    const Binding* binding = model_.lookup(new_name, use);
    if (binding != nullptr && (binding->kind != BindingKind::Import || binding->qualified_name != qualified)) {
      return taken(new_name);
    }
  }
  // Already imported by this statement or an earlier one of the same block: reuse that import.
  if (auto it = scope.bindings.find(std::string(new_name)); it != scope.bindings.end()) {
    for (const Binding& binding : it->second) {
      bool earlier = binding.node == statement ||
                     (binding.node.end() <= statement.start() && binding.node.parent() == statement.parent());
      if (!earlier) continue;
      if (std::optional<Edit> removal = remove_name(item)) return {{*removal}, std::string(new_name), {}};
    }
  }
  return {{rename}, std::string(new_name), {}};
}

std::optional<Edit> ImportEditor::remove_name(Node item) {
  Node statement = item.parent();
  std::vector<Node> items = statement.children_of_field("name");
  if (items.size() <= 1) return remove_statement(statement);
  return remove_from_sequence(items, item);
}

std::optional<Edit> ImportEditor::with_fallback(Node statement, const std::vector<Edit>& edits) {
  std::string_view source = statement.source();
  uint32_t line = line_start(source, statement.start());
  std::string_view indent = source.substr(line, statement.start() - line);
  if (!is_blank(indent) || !rest_of_line_is_empty(source, statement.end())) return std::nullopt;
  std::string_view newline = newline_of(source);
  std::string inner(indent);
  inner += indent.find('\t') != std::string_view::npos ? "\t" : "    ";
  // Continuation lines move with their statement one level in.
  auto indented = [&](std::string_view text) {
    std::string out;
    for (char c : text) {
      out += c;
      if (c == '\n') out += inner.substr(indent.size());
    }
    return out;
  };
  std::string old_text(statement.text());
  std::vector<Edit> local;
  for (const Edit& edit : edits) {
    local.push_back(
        Edit::replace({edit.range.start - statement.start(), edit.range.end - statement.start()}, edit.replacement));
  }
  std::string new_text = apply_edits(old_text, std::move(local));
  std::string text = "try:" + std::string(newline) + inner + indented(new_text) + std::string(newline);
  text += std::string(indent) + "except ImportError:" + std::string(newline) + inner + indented(old_text);
  return Edit::replace(statement.range(), std::move(text));
}

Edit ImportEditor::replace_module(Node target, std::string_view new_module) {
  Node module = target.kind() == "import_from_statement" ? target.field("module_name") : imported_name(target);
  return Edit::replace(module.range(), std::string(new_module));
}

}  // namespace torchmigrate::python
