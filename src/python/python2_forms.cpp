// SPDX-License-Identifier: MIT
#include "torchmigrate/python/python2_forms.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "torchmigrate/core/text_search.hpp"

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

// The first byte after `at` that is not a space or tab.
char next_visible(std::string_view text, size_t at) {
  size_t next = text.find_first_not_of(" \t", at);
  return next == std::string_view::npos ? '\0' : text[next];
}

// Where the string literal opened by the quote at `at` ends (one past its closing quote), or npos.
size_t string_end(std::string_view text, size_t at) {
  char quote = text[at];
  bool triple = text.substr(at, 3) == std::string(3, quote);
  for (size_t i = at + (triple ? 3 : 1); i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (!triple && text[i] == '\n') {
      return std::string_view::npos;
    } else if (text[i] == quote && (!triple || text.substr(i, 3) == std::string(3, quote))) {
      return i + (triple ? 3 : 1);
    }
  }
  return std::string_view::npos;
}

// Whether the line break at `at` follows a backslash (CRLF too): the statement goes on.
bool continued(std::string_view text, size_t at) {
  if (at > 0 && text[at - 1] == '\r') --at;
  return at > 0 && text[at - 1] == '\\';
}

// What the statement or clause from `from` holds, read as text: kAt where a comma stands outside
// brackets, a parenthesis inside the first pair of parentheses (`nested`), or the text is not
// plain enough to tell (a comment, an unclosed string or bracket); kNone at the end of the
// statement (or of a clause's header, at `:`). Strings are stepped over.
enum class Shape { kNone, kAt };
Shape scan_statement(std::string_view text, size_t from, bool nested) {
  int depth = 0;
  for (size_t at = from; at < text.size(); ++at) {
    char c = text[at];
    if (c == '"' || c == '\'') {
      size_t end = string_end(text, at);
      if (end == std::string_view::npos) return Shape::kAt;
      at = end - 1;
    } else if (c == '#') {
      return Shape::kAt;
    } else if (c == '(' || c == '[' || c == '{') {
      if (nested && c == '(' && depth >= 1) return Shape::kAt;
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return Shape::kAt;
      if (nested && depth == 0) return Shape::kNone;
    } else if (depth == 0 && !nested && c == ',') {
      return Shape::kAt;
    } else if (depth == 0 && !nested && (c == ':' || c == ';' || (c == '\n' && !continued(text, at)))) {
      return Shape::kNone;
    }
  }
  return Shape::kAt;
}

// Whether the text after keyword `word` (ending at `end`) may hold the Python 2 form keyword_form
// looks for: a test on the text that spares the tree lookup at nearly every keyword of Python 3
// code. Where the text is not plain enough to tell, the tree decides.
bool may_be_python2_keyword(std::string_view text, std::string_view word, size_t end) {
  if (word == "print" || word == "exec") return next_visible(text, end) != '(';  // a call otherwise
  if (word == "lambda") return next_visible(text, end) == '(';                   // `lambda (x, y): ...`
  // `except A, e:` and `raise E, V`: a comma outside brackets.
  if (word == "except" || word == "raise") return scan_statement(text, end, false) == Shape::kAt;
  // `def f(a, (b, c)):`: a parenthesis inside the parameter list.
  size_t open = text.find('(', end);
  return open == std::string_view::npos || scan_statement(text, open, true) == Shape::kAt;
}

std::optional<Python2Form> keyword_forms(const SyntaxTree& tree) {
  std::string_view text = tree.source();
  std::optional<Python2Form> first;
  for (std::string_view word : {"print", "exec", "except", "raise", "def", "lambda"}) {
    for (size_t at = find_text(text, word); at != std::string_view::npos; at = find_text(text, word, at + 1)) {
      if (first && at >= first->node.start()) break;
      if (at > 0 && identifier_byte(text[at - 1])) continue;
      if (at + word.size() < text.size() && identifier_byte(text[at + word.size()])) continue;
      if (!may_be_python2_keyword(text, word, at + word.size())) continue;
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
    // The token's text as written decides first; only a literal with a problem is looked up.
    size_t end = at;
    while (end < text.size() && identifier_byte(text[end])) ++end;
    std::string_view written = text.substr(at, end - at);
    bool plain = written.find_first_of("lL_") == std::string_view::npos && (c != '0' || written.size() == 1);
    if (plain) return std::nullopt;
    Node node = tree.root().descendant_for_range(at, at + 1);
    if (!node || node.kind() != "integer" || node.start() != at) return std::nullopt;
    if (auto problem = integer_problem(node.text())) return Python2Form{node, *problem};
    return std::nullopt;
  }
  if (c == '`' || ((c == '"' || c == '\'') && at > 0 && std::isalpha(static_cast<unsigned char>(text[at - 1])) != 0)) {
    // A prefix Python 3 knows, as written, is one as parsed: only other letters are looked up.
    size_t start = at;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1])) != 0) --start;
    if (c != '`' && known_prefix(text.substr(start, at - start))) return std::nullopt;
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
