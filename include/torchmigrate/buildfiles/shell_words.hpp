// SPDX-License-Identifier: MIT
// A small POSIX-shell word splitter: enough to find `NAME=value` words, `export` lists and
// `pip install` arguments in shell scripts, Dockerfile RUN lines, Makefile recipes and CI steps.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchmigrate::buildfiles {

struct ShellWord {
  size_t begin = 0;          // in the text given to shell_words
  size_t end = 0;
  std::string value;         // with quotes and escapes removed
  bool is_operator = false;  // ; & && | || ( )
  bool fully_quoted = false; // the raw word is exactly one quoted string
  char quote = 0;            // that quote character
};

std::vector<ShellWord> shell_words(std::string_view text);

// Whether `value` (a dequoted word) has the shape NAME=... with a valid variable name.
bool is_assignment_word(std::string_view value);

}  // namespace torchmigrate::buildfiles
