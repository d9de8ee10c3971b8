// SPDX-License-Identifier: MIT
// A check of TOML text before toml++ sees it. toml++ 3.3.0 (Debian's) reaches
// __builtin_unreachable() when some non-ASCII code points (U+FEEF, most of U+00A1..U+0499 and
// U+FB36..U+FEFE) stand where it tests for whitespace: undefined behaviour, found by the
// `config` fuzz target. TOML 1.0 allows non-ASCII characters only in strings and comments, so
// refusing one anywhere else rejects no valid document and keeps toml++ off that path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace torchmigrate::buildfiles {

struct TomlTextProblem {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based, in characters (code points), as toml++ counts
  std::string description;
};

// The first non-ASCII byte outside basic and literal strings (single- and multi-line) and
// comments, or nothing. A UTF-8 byte order mark at the very start is allowed, as toml++ skips it.
// Inside a basic string, toml++ also tests the character right after a backslash, and in a
// multi-line one the first after the whitespace that a line-ending backslash trims: a non-ASCII
// one there is refused too (valid TOML in the second case, rare, and \uXXXX writes it).
std::optional<TomlTextProblem> toml_text_problem(std::string_view text);

// Throws toml::parse_error (line and column of the problem, `source_path` as its file) when
// toml_text_problem finds one, so that a caller reports it as it reports toml++'s own errors.
// Call it before every toml::parse of text that comes from a user.
void refuse_unsafe_toml(std::string_view text, std::string_view source_path = {});

}  // namespace torchmigrate::buildfiles
