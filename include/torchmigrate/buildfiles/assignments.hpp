// SPDX-License-Identifier: MIT
// Finds where a build file sets an environment or build variable, in each format's spellings:
// Dockerfile ENV/ARG (both forms), shell `X=v cmd` / `export X=v` / `env X=v`, `-DX=v`,
// CI YAML `X: v`, CMake `set(X ...)` / `set(ENV{X} ...)`, Makefile `X := v`, .env, TOML/INI,
// cmd.exe `set`/`setx` (batch.hpp), the shell sections of Singularity/Apptainer definitions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::buildfiles {

struct Assignment {
  std::string name;
  TextRange name_range;
  std::string value;        // quotes and escapes removed
  TextRange value_range;    // the value as written, quotes included
  bool value_quoted = false;  // the value as written is one quoted string
  char quote = 0;
  // Deleting this range removes the assignment and leaves valid syntax; unset when no such
  // deletion exists (`docker run -e X=0`, the only key of a YAML mapping, `a && X=0 && b`).
  std::optional<TextRange> removal;
};

// Assignments to any of `names`, in file order.
std::vector<Assignment> find_assignments(const BuildFile& file, const std::vector<std::string>& names);

}  // namespace torchmigrate::buildfiles
