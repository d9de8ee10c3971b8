// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/syntax_check.hpp"

#include <toml++/toml.h>

#include <string>

#include "torchmigrate/buildfiles/toml_guard.hpp"

namespace torchmigrate::buildfiles {

size_t syntax_errors(const BuildFile& file) {
  if (file.kind == FileKind::SetupPy) return 0;
  if (file.kind == FileKind::Toml) {
    try {
      refuse_unsafe_toml(file.text);
      (void)toml::parse(file.text);
      return 0;
    } catch (const toml::parse_error&) {
      return 1;
    }
  }
  size_t errors = 0;
  int depth = 0;  // CMake parentheses, across the lines of one command
  for (const LogicalLine& line : file.lines) {
    char quote = 0;
    for (char c : line.text) {
      if (quote != 0) {
        if (c == quote) quote = 0;
        continue;
      }
      if (c == '"' || (c == '\'' && file.kind != FileKind::CMake)) {
        quote = c;
      } else if (file.kind == FileKind::CMake && c == '(') {
        ++depth;
      } else if (file.kind == FileKind::CMake && c == ')') {
        if (--depth < 0) {
          ++errors;
          depth = 0;
        }
      }
    }
    if (quote != 0) ++errors;
  }
  return errors + (depth > 0 ? 1 : 0);
}

}  // namespace torchmigrate::buildfiles
