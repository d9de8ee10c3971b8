// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/shell_words.hpp"

#include <cctype>

namespace torchmigrate::buildfiles {

std::vector<ShellWord> shell_words(std::string_view text) {
  std::vector<ShellWord> words;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c == ';' || c == '&' || c == '|' || c == '(' || c == ')') {
      ShellWord word;
      word.begin = i;
      word.is_operator = true;
      size_t length = (i + 1 < text.size() && (c == '&' || c == '|') && text[i + 1] == c) ? 2 : 1;
      word.value = std::string(text.substr(i, length));
      i += length;
      word.end = i;
      words.push_back(std::move(word));
      continue;
    }
    ShellWord word;
    word.begin = i;
    int quoted_parts = 0;
    bool unquoted_part = false;
    while (i < text.size()) {
      c = text[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')') {
        // `$(`, `${` and `$((` belong to the word.
        if (c == '(' && i > 0 && text[i - 1] == '$') {
          int depth = 0;
          for (; i < text.size(); ++i) {
            word.value.push_back(text[i]);
            if (text[i] == '(') ++depth;
            if (text[i] == ')' && --depth == 0) break;
          }
          if (i < text.size()) ++i;  // past the closing `)`; an unclosed `$(` ends with the text
          unquoted_part = true;
          continue;
        }
        break;
      }
      if (c == '\'' || c == '"') {
        char quote = c;
        ++quoted_parts;
        word.quote = quote;
        ++i;
        while (i < text.size() && text[i] != quote) {
          if (quote == '"' && text[i] == '\\' && i + 1 < text.size()) ++i;
          word.value.push_back(text[i]);
          ++i;
        }
        if (i < text.size()) ++i;  // closing quote
        continue;
      }
      if (c == '\\' && i + 1 < text.size()) ++i;
      word.value.push_back(text[i]);
      unquoted_part = true;
      ++i;
    }
    word.end = i;
    word.fully_quoted = quoted_parts == 1 && !unquoted_part;
    if (!word.fully_quoted) word.quote = quoted_parts > 0 ? word.quote : 0;
    words.push_back(std::move(word));
  }
  return words;
}

bool is_assignment_word(std::string_view value) {
  size_t equals = value.find('=');
  if (equals == 0 || equals == std::string_view::npos) return false;
  if (std::isdigit(static_cast<unsigned char>(value[0]))) return false;
  for (size_t i = 0; i < equals; ++i) {
    char c = value[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

}  // namespace torchmigrate::buildfiles
