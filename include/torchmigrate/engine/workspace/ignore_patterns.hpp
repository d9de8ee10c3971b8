// SPDX-License-Identifier: MIT
// One ignore file (.gitignore, info/exclude, core.excludesFile) as git reads it: blank lines and
// `#` comments skipped, `!` negates, a trailing `/` matches directories only, a pattern without
// an inner `/` matches a name at any depth, one with a `/` matches the path below the file's
// directory, and `**` spans directories. See gitignore(5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/string_map.hpp"

namespace torchmigrate::engine {

class IgnorePatterns {
 public:
  IgnorePatterns() = default;
  // `text` is the file's content.
  explicit IgnorePatterns(std::string_view text);

  // The verdict of the last pattern matching `path` (relative to the file's directory, '/'
  // separated, no trailing '/'): true ignores, false re-includes (`!`); nothing when none matches.
  [[nodiscard]] std::optional<bool> verdict(std::string_view path, bool directory, bool ignore_case) const;
  [[nodiscard]] bool empty() const { return patterns_.empty(); }

 private:
  enum class Shape {
    Literal,     // no wildcard: the text itself
    StarSuffix,  // `*` and then no wildcard: a suffix
    Wildcards,   // anything else: matched component by component
  };
  struct Pattern {
    std::string text;  // without `!`, the leading and the trailing `/`
    // The literal text before the first and after the last wildcard: every match starts and ends
    // with them, so most paths are turned away without matching.
    std::string prefix, suffix;
    Shape shape = Shape::Literal;
    bool negated = false;
    bool directory_only = false;
    bool basename_only = false;  // no `/`: matches the last component, at any depth
    // Wildcards: the last component when it is not `**`. It must match the path's last
    // component, which turns most paths away with one fnmatch.
    std::string last_part;
  };
  // The subject's last component, copied once per verdict: fnmatch wants terminated strings.
  struct Subject {
    std::string_view text;
    std::string last_component;
  };
  [[nodiscard]] static bool matches(const Pattern& pattern, const Subject& subject, bool ignore_case);
  [[nodiscard]] std::optional<bool> scan_all(std::string_view path, bool directory, bool ignore_case) const;

  // A file's patterns are many (300 lines is common) and a walk asks about every file, so the
  // names and `*suffix` patterns without a `/` are looked up by the name, and only the others
  // are tried one by one. Case-sensitive only; core.ignoreCase tries every pattern.
  using Index = StringMap<std::vector<uint32_t>>;

  std::vector<Pattern> patterns_;
  Index by_name_;                     // basename-only literals, by their text
  Index by_suffix_;                   // basename-only `*suffix`, by the suffix
  std::vector<size_t> suffix_sizes_;  // of by_suffix_'s keys, ascending, each once
  std::vector<uint32_t> scanned_;     // every other pattern's index, ascending
};

// git's wildmatch with WM_PATHNAME: `*`, `?` and `[...]` stay within a component; a `**`
// component spans any number of them (at least one when it ends the pattern).
bool wildmatch_path(std::string_view pattern, std::string_view path, bool ignore_case);

}  // namespace torchmigrate::engine
