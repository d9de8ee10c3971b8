// SPDX-License-Identifier: MIT
// Finds requirements on a named distribution wherever a project pins packages: requirement
// and constraint files, pyproject.toml, setup.cfg, setup.py string literals, environment.yml
// (conda and pip sections), and `pip install` / `conda install` commands in shell-like files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::buildfiles {

// PEP 503 normalisation: lower case, runs of `-_.` become `-`.
std::string normalize_name(std::string_view name);

// Offsets of a PEP 508 requirement's parts, relative to the text given.
struct Pep508 {
  size_t name_begin = 0, name_end = 0;
  size_t specifier_begin = 0, specifier_end = 0;  // empty (at the insertion point) when absent
  std::string specifier;                          // trimmed, without parentheses
};
std::optional<Pep508> parse_pep508(std::string_view text);

// A conda match spec (`name`, `name=1.2`, `name 1.2.*`, `name>=1.2,<2`, `ch::name=1.2=build`)
// with its version part converted to a PEP 440 specifier set.
std::optional<Pep508> parse_conda_spec(std::string_view text);

struct Requirement {
  std::string name;              // as written
  std::string specifier;         // PEP 440 specifier set (conda specs converted)
  TextRange range;               // the requirement as written
  TextRange specifier_range;     // what a new specifier replaces
  bool conda = false;
  // In a shell command: a new specifier with `<`/`>` must be quoted. Set when the word is
  // unquoted; `word_range` and `word` then give the whole word to re-quote.
  bool needs_quoting = false;
  TextRange word_range;
  std::string word;
  bool fixable = true;           // false when the text as written could not be mapped exactly
};

// Whether a `pip install` / `conda install` option takes the next word as its argument
// (`--index-url URL`, `-r FILE`, `-c CHANNEL`).
bool install_option_takes_argument(std::string_view option);

// Why a file's own format could not be read (pyproject.toml that is not TOML), and where.
struct FormatError {
  uint32_t line = 0;  // 1-based
  std::string what;
};

// Requirements whose normalised name is `name` (give it normalised). A file whose format
// cannot be read yields none, and says why in `error` when given.
std::vector<Requirement> find_requirements(const BuildFile& file, std::string_view name,
                                           std::optional<FormatError>* error = nullptr);

}  // namespace torchmigrate::buildfiles
