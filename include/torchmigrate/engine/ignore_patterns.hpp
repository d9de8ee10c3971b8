// SPDX-License-Identifier: MIT
// One ignore file (.gitignore, info/exclude, core.excludesFile) as git reads it: blank lines and
// `#` comments skipped, `!` negates, a trailing `/` matches directories only, a pattern without
// an inner `/` matches a name at any depth, one with a `/` matches the path below the file's
// directory, and `**` spans directories. See gitignore(5).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  };
  [[nodiscard]] static bool matches(const Pattern& pattern, std::string_view subject, bool ignore_case);

  std::vector<Pattern> patterns_;
};

// git's wildmatch with WM_PATHNAME: `*`, `?` and `[...]` stay within a component; a `**`
// component spans any number of them (at least one when it ends the pattern).
bool wildmatch_path(std::string_view pattern, std::string_view path, bool ignore_case);

}  // namespace torchmigrate::engine
