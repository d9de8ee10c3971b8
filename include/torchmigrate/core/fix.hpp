// SPDX-License-Identifier: MIT
// Edits and fixes: what a diagnostic proposes to change, and how far it can be trusted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/text_range.hpp"
#include "torchmigrate/core/torch_version.hpp"

namespace torchmigrate {

struct Edit {
  TextRange range;
  std::string replacement;

  static Edit replace(TextRange range, std::string text) { return {range, std::move(text)}; }
  static Edit insert(uint32_t at, std::string text) { return {{at, at}, std::move(text)}; }
  static Edit remove(TextRange range) { return {range, {}}; }
  bool operator==(const Edit&) const = default;
};

// Ruff's three levels: safe fixes run with --fix, unsafe ones need --unsafe-fixes,
// display-only ones are shown as a suggestion and never applied.
enum class Applicability { Safe, Unsafe, DisplayOnly };

// The less safe of two: a check may offer a fix less safe than its catalog entry, never safer.
constexpr Applicability least_safe(Applicability a, Applicability b) { return a > b ? a : b; }

// What the fixed code needs to work as intended (the catalog's `fix.requires`); nothing means
// every torch version. Whether a project meets it is decided by `Settings::effective`.
struct FixRequirements {
  std::optional<TorchVersion> torch;  // lowest torch release the fixed code works on
  std::optional<TorchVersion> below;  // first release the fixed code no longer works on (`<2.11`)

  [[nodiscard]] bool empty() const { return !torch && !below; }
  bool operator==(const FixRequirements&) const = default;
};

// Which side of a changed default a fix takes (spec: "Changed defaults get two fixes").
enum class FixPolicy { None, KeepOld, AdoptNew };

struct Fix {
  std::string title;  // imperative: "Replace with `x`"
  std::vector<Edit> edits;
  Applicability applicability = Applicability::Safe;
  FixRequirements requirements;  // what the fixed code requires
  FixPolicy policy = FixPolicy::None;
  // Modules the fix makes the file import (`from x import a`: `x`, and `x.a` when `a` is a
  // module). A fix that would make a module import itself is withheld (engine/lint/fixer.hpp).
  std::vector<std::string> imported_modules;
  // One of several spellings of the same change, preferred first, each with its requirements:
  // a run keeps the first its torch range meets, else the first (engine/lint/lint_environment).
  bool alternative_spelling = false;
};

std::string_view to_string(Applicability applicability);
// "torch>=2.8", "torch>=2.5,<2.11", or "" for no requirement.
std::string to_string(const FixRequirements& requirements);
std::string_view to_string(FixPolicy policy);

// Applies non-overlapping edits (sorted by position) to `text`.
std::string apply_edits(std::string_view text, std::vector<Edit> edits);

}  // namespace torchmigrate
