// SPDX-License-Identifier: MIT
#include "torchmigrate/python/python2_forms.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace torchmigrate::python {
namespace {

bool identifier_byte(char c) {
  auto byte = static_cast<unsigned char>(c);
  return byte >= 0x80 || std::isalnum(byte) != 0 || c == '_';
}

// The token spelled at [at, at + size), when it is one.
Node token_at(const SyntaxTree& tree, uint32_t at, uint32_t size) {
  Node node = tree.root().descendant_for_range(at, at + size);
  if (!node || node.start() != at || node.end() != at + size) return {};
  return node;
}

bool has_child(Node node, std::string_view kind) {
  for (uint32_t i = 0; i < node.child_count(); ++i) {
    if (node.child(i).kind() == kind) return true;
  }
  return false;
}

bool has_tuple_parameter(Node parameters) { return parameters && has_child(parameters, "tuple_pattern"); }

// The statement or clause that keyword `word` (found at `at`) starts, when Python 3 rejects it.
std::optional<Python2Form> keyword_form(const SyntaxTree& tree, std::string_view word, uint32_t at) {
  Node keyword = token_at(tree, at, static_cast<uint32_t>(word.size()));
  if (!keyword || keyword.kind() != word) return std::nullopt;
  Node parent = keyword.parent();
  if (!parent) return std::nullopt;
  std::string_view kind = parent.kind();
  // `print >>f, x` is a valid Python 3 expression (a shift in a tuple); Python 2's form without
  // the chevron is not.
  if (kind == "print_statement" && !has_child(parent, "chevron"))
    return Python2Form{parent, "Missing parentheses in call to 'print'. Did you mean print(...)?"};
  if (kind == "exec_statement")
    return Python2Form{parent, "Missing parentheses in call to 'exec'. Did you mean exec(...)?"};
  if (kind == "except_clause" && has_child(parent, ","))
    return Python2Form{parent, "multiple exception types must be parenthesized"};
  if (kind == "raise_statement" && has_child(parent, "expression_list")) return Python2Form{parent, "invalid syntax"};
  if ((kind == "function_definition" || kind == "lambda") && has_tuple_parameter(parent.field("parameters")))
    return Python2Form{parent.field("parameters"), kind == "lambda"
                                                       ? "Lambda expression parameters cannot be parenthesized"
                                                       : "Function parameters cannot be parenthesized"};
  return std::nullopt;
}

std::optional<Python2Form> keyword_forms(const SyntaxTree& tree) {
  std::string_view text = tree.source();
  std::optional<Python2Form> first;
  for (std::string_view word : {"print", "exec", "except", "raise", "def", "lambda"}) {
    for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
      if (first && at >= first->node.start()) break;
      if (at > 0 && identifier_byte(text[at - 1])) continue;
      if (at + word.size() < text.size() && identifier_byte(text[at + word.size()])) continue;
      if (auto form = keyword_form(tree, word, static_cast<uint32_t>(at))) {
        first = std::move(form);
        break;
      }
    }
  }
  return first;
}

// An integer literal Python 3 rejects: `10L`, `0777`, `1_`, `1__0`.
std::optional<std::string> integer_problem(std::string_view literal) {
  char last = literal.back();
  bool prefixed = literal.size() > 1 && literal[0] == '0' && std::strchr("xXoObB", literal[1]) != nullptr;
  if (last == 'l' || last == 'L') {
    if (!prefixed) return "invalid decimal literal";
    char base = static_cast<char>(std::tolower(static_cast<unsigned char>(literal[1])));
    return base == 'x'   ? "invalid hexadecimal literal"
           : base == 'o' ? "invalid octal literal"
                         : "invalid binary literal";
  }
  if (last == '_' || literal.find("__") != std::string_view::npos) return "invalid decimal literal";
  if (!prefixed && literal[0] == '0' && last != 'j' && last != 'J' &&
      literal.find_first_not_of("0_") != std::string_view::npos)
    return "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
  return std::nullopt;
}

// A string's prefix Python 3 knows: none, or one of r, u, b, f (t since 3.14) with r beside b,
// f or t.
bool known_prefix(std::string_view prefix) {
  std::string lower;
  for (char c : prefix) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::sort(lower.begin(), lower.end());
  static const std::vector<std::string> known{"", "r", "u", "b", "f", "t", "br", "fr", "rt"};
  return std::find(known.begin(), known.end(), lower) != known.end();
}

// Literals: integers (a digit that starts a token) and string openings (a backtick, a quote
// after a letter).
std::optional<Python2Form> literal_form(const SyntaxTree& tree, uint32_t at) {
  std::string_view text = tree.source();
  char c = text[at];
  if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
    if (at > 0 && (identifier_byte(text[at - 1]) || text[at - 1] == '.')) return std::nullopt;
    Node node = tree.root().descendant_for_range(at, at + 1);
    if (!node || node.kind() != "integer" || node.start() != at) return std::nullopt;
    if (auto problem = integer_problem(node.text())) return Python2Form{node, *problem};
    return std::nullopt;
  }
  if (c == '`' || ((c == '"' || c == '\'') && at > 0 && std::isalpha(static_cast<unsigned char>(text[at - 1])) != 0)) {
    Node node = tree.root().descendant_for_range(at, at + 1);
    if (!node || node.kind() != "string_start") return std::nullopt;
    std::string_view opening = node.text();
    size_t quote = opening.find_first_of("\"'`");
    if (quote == std::string_view::npos || opening[quote] == '`' || !known_prefix(opening.substr(0, quote)))
      return Python2Form{node, "invalid syntax"};
  }
  return std::nullopt;
}

std::optional<Python2Form> literal_forms(const SyntaxTree& tree, uint32_t before) {
  std::string_view text = tree.source();
  for (uint32_t at = 0; at < std::min<size_t>(before, text.size()); ++at) {
    char c = text[at];
    if (std::isdigit(static_cast<unsigned char>(c)) == 0 && c != '`' && c != '"' && c != '\'') continue;
    if (auto form = literal_form(tree, at)) return form;
  }
  return std::nullopt;
}

// `a <> b`; Python 3 reads it only under `from __future__ import barry_as_FLUFL`.
std::optional<Python2Form> diamond_form(const SyntaxTree& tree) {
  std::string_view text = tree.source();
  if (text.find("barry_as_FLUFL") != std::string_view::npos) return std::nullopt;
  for (size_t at = text.find("<>"); at != std::string_view::npos; at = text.find("<>", at + 1)) {
    Node node = token_at(tree, static_cast<uint32_t>(at), 2);
    if (node && node.kind() == "<>") return Python2Form{node, "invalid syntax"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Python2Form> first_python2_form(const SyntaxTree& tree) {
  std::optional<Python2Form> first = keyword_forms(tree);
  auto keep = [&](std::optional<Python2Form> form) {
    if (form && (!first || form->node.start() < first->node.start())) first = std::move(form);
  };
  keep(diamond_form(tree));
  keep(literal_forms(tree, first ? first->node.start() : UINT32_MAX));
  return first;
}

}  // namespace torchmigrate::python
