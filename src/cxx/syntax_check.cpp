// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/syntax_check.hpp"

#include <vector>

namespace torchmigrate::cxx {

size_t unbalanced_brackets(const SourceScan& scan) {
  size_t errors = 0;
  std::vector<char> open;
  for (const Token& token : scan.tokens()) {
    if (token.disabled || token.kind != TokenKind::Punctuation || token.spelling.size() != 1) continue;
    char c = token.spelling[0];
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(c);
    } else if (c == ')' || c == ']' || c == '}') {
      char wanted = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (!open.empty() && open.back() == wanted) {
        open.pop_back();
      } else {
        ++errors;
      }
    }
  }
  return errors + open.size();
}

}  // namespace torchmigrate::cxx
