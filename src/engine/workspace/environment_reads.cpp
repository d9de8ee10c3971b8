// SPDX-License-Identifier: MIT
// The environment variables a Python source reads by name: `os.environ.get("X")`,
// `os.getenv("X")`, `os.environ["X"]` outside an assignment to it, `"X" in os.environ`. A token
// scan rather than a parse: the fact is gathered from every Python file of a project that
// mentions `environ` or `getenv`, and a name in a comment at worst exempts one setting.
#include <algorithm>
#include <cctype>

#include "torchmigrate/core/text_search.hpp"
#include "torchmigrate/engine/workspace/python_source_facts.hpp"

namespace torchmigrate::engine {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_blanks(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at;
}

// A quoted name at `at` (`"X"` or `'X'`): the name and the position after the closing quote.
std::optional<std::pair<std::string, size_t>> quoted_name(std::string_view text, size_t at) {
  if (at >= text.size() || (text[at] != '"' && text[at] != '\'')) return std::nullopt;
  size_t end = at + 1;
  while (end < text.size() && is_name_char(text[end])) ++end;
  if (end == at + 1 || end >= text.size() || text[end] != text[at]) return std::nullopt;
  return std::make_pair(std::string(text.substr(at + 1, end - at - 1)), end + 1);
}

// `("X"` after a call's name.
std::optional<std::string> first_argument(std::string_view text, size_t at) {
  at = skip_blanks(text, at);
  if (at >= text.size() || text[at] != '(') return std::nullopt;
  auto name = quoted_name(text, skip_blanks(text, at + 1));
  return name ? std::optional<std::string>(name->first) : std::nullopt;
}

// `["X"]` not followed by `=` (a store) after `environ`.
std::optional<std::string> subscript_read(std::string_view text, size_t at) {
  at = skip_blanks(text, at);
  if (at >= text.size() || text[at] != '[') return std::nullopt;
  auto name = quoted_name(text, skip_blanks(text, at + 1));
  if (!name) return std::nullopt;
  size_t close = skip_blanks(text, name->second);
  if (close >= text.size() || text[close] != ']') return std::nullopt;
  size_t next = skip_blanks(text, close + 1);
  bool store = next < text.size() && text[next] == '=' && (next + 1 >= text.size() || text[next + 1] != '=');
  return store ? std::nullopt : std::optional<std::string>(name->first);
}

// `"X" in ` before `environ` (at `at`, `os.` already stepped over).
std::optional<std::string> membership_test(std::string_view text, size_t at) {
  size_t end = at;
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  if (end < 3 || text.substr(end - 2, 2) != "in" || is_name_char(text[end - 3])) return std::nullopt;
  end -= 2;
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  if (end >= 4 && text.substr(end - 3, 3) == "not" && !is_name_char(text[end - 4])) {  // `not in`
    end -= 3;
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  }
  if (end < 3 || (text[end - 1] != '"' && text[end - 1] != '\'')) return std::nullopt;
  size_t start = end - 1;
  while (start > 0 && is_name_char(text[start - 1])) --start;
  if (start == 0 || text[start - 1] != text[end - 1]) return std::nullopt;
  return std::string(text.substr(start, end - 1 - start));
}

}  // namespace

std::vector<std::string> environment_reads(std::string_view source) {
  std::vector<std::string> names;
  auto add = [&](const std::optional<std::string>& name) {
    if (name && !name->empty()) names.push_back(*name);
  };
  for (size_t at = find_text(source, "getenv"); at != std::string_view::npos;
       at = find_text(source, "getenv", at + 1)) {
    add(first_argument(source, at + 6));
  }
  for (size_t at = find_text(source, "environ"); at != std::string_view::npos;
       at = find_text(source, "environ", at + 1)) {
    size_t after = at + 7;
    if (after < source.size() && is_name_char(source[after])) continue;  // `environment`
    if (source.substr(after).starts_with(".get")) add(first_argument(source, after + 4));
    add(subscript_read(source, after));
    add(membership_test(source, at >= 3 && source.substr(at - 3, 3) == "os." ? at - 3 : at));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace torchmigrate::engine
