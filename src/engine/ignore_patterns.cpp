// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/ignore_patterns.hpp"

#include <algorithm>
#include <cctype>

#include <fnmatch.h>

namespace torchmigrate::engine {
namespace {

bool has_wildcard(std::string_view text) { return text.find_first_of("*?[\\") != std::string_view::npos; }

bool equal(std::string_view a, std::string_view b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::vector<std::string_view> components(std::string_view text) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t slash = text.find('/', start);
    parts.push_back(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return parts;
    start = slash + 1;
  }
}

bool component_matches(std::string_view pattern, std::string_view name, bool ignore_case) {
  if (!has_wildcard(pattern)) return equal(pattern, name, ignore_case);
  // fnmatch(3) wants terminated strings; components are short.
  return ::fnmatch(std::string(pattern).c_str(), std::string(name).c_str(), ignore_case ? FNM_CASEFOLD : 0) == 0;
}

// Whether pattern[p...] matches path[s...]. `failed` remembers the (p, s) pairs that did not:
// without it, a `.gitignore` line with many `**` against a deep path tries every way to spread
// the path over them (a hostile file could stop a run for hours).
bool match_components(const std::vector<std::string_view>& pattern, size_t p, const std::vector<std::string_view>& path,
                      size_t s, bool ignore_case, std::vector<bool>& failed) {
  size_t at = p * (path.size() + 1) + s;
  if (failed[at]) return false;
  bool matched = [&] {
    for (; p < pattern.size(); ++p, ++s) {
      if (pattern[p] == "**") {
        if (p + 1 == pattern.size()) return s < path.size();  // `x/**`: everything inside x
        for (size_t skip = s; skip <= path.size(); ++skip) {
          if (match_components(pattern, p + 1, path, skip, ignore_case, failed)) return true;
        }
        return false;
      }
      if (s >= path.size() || !component_matches(pattern[p], path[s], ignore_case)) return false;
    }
    return s == path.size();
  }();
  if (!matched) failed[at] = true;
  return matched;
}

// Trailing spaces go unless escaped with a backslash; so does a carriage return (CRLF files).
std::string_view trim_line(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  while (line.ends_with(' ')) {
    size_t backslashes = 0;
    for (size_t i = line.size() - 1; i > 0 && line[i - 1] == '\\'; --i) ++backslashes;
    if (backslashes % 2 == 1) break;
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

bool wildmatch_path(std::string_view pattern, std::string_view path, bool ignore_case) {
  std::vector<std::string_view> pattern_parts = components(pattern);
  std::vector<std::string_view> path_parts = components(path);
  std::vector<bool> failed((pattern_parts.size() + 1) * (path_parts.size() + 1), false);
  return match_components(pattern_parts, 0, path_parts, 0, ignore_case, failed);
}

IgnorePatterns::IgnorePatterns(std::string_view text) {
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim_line(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    Pattern pattern;
    if (line.front() == '!') {
      pattern.negated = true;
      line.remove_prefix(1);
    } else if (line.starts_with("\\!") || line.starts_with("\\#")) {
      line.remove_prefix(1);
    }
    if (line.ends_with('/')) {
      pattern.directory_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    pattern.basename_only = line.find('/') == std::string_view::npos;
    if (line.front() == '/') line.remove_prefix(1);
    if (line.empty()) continue;
    pattern.text = std::string(line);
    if (!has_wildcard(line)) {
      pattern.shape = Shape::Literal;
    } else if (line.front() == '*' && !has_wildcard(line.substr(1))) {
      pattern.shape = Shape::StarSuffix;
    } else {
      pattern.shape = Shape::Wildcards;
      pattern.prefix = std::string(line.substr(0, line.find_first_of("*?[\\")));
      // A `]` may close a class; whatever follows the last wildcard-like character is literal.
      size_t last = line.find_last_of("*?]\\");
      pattern.suffix = std::string(line.substr(last + 1));
      // `**/` may match no directory at all, and take the `/` with it.
      if (pattern.suffix.starts_with('/') && last >= 1 && line.substr(last - 1, 2) == "**") pattern.suffix.erase(0, 1);
    }
    patterns_.push_back(std::move(pattern));
  }
}

bool IgnorePatterns::matches(const Pattern& pattern, std::string_view subject, bool ignore_case) {
  switch (pattern.shape) {
    case Shape::Literal: return equal(pattern.text, subject, ignore_case);
    case Shape::StarSuffix: {
      std::string_view suffix = std::string_view(pattern.text).substr(1);
      // `*` stays within a component: a basename has none to cross; a path must not.
      return subject.size() >= suffix.size() &&
             equal(subject.substr(subject.size() - suffix.size()), suffix, ignore_case) &&
             subject.substr(0, subject.size() - suffix.size()).find('/') == std::string_view::npos;
    }
    case Shape::Wildcards:
      // Checked apart: `a/**/b` matches `a/b`, where the two overlap.
      if (subject.size() < std::max(pattern.prefix.size(), pattern.suffix.size()) ||
          !equal(subject.substr(0, pattern.prefix.size()), pattern.prefix, ignore_case) ||
          !equal(subject.substr(subject.size() - pattern.suffix.size()), pattern.suffix, ignore_case)) {
        return false;
      }
      return wildmatch_path(pattern.text, subject, ignore_case);
  }
  return false;
}

std::optional<bool> IgnorePatterns::verdict(std::string_view path, bool directory, bool ignore_case) const {
  size_t slash = path.rfind('/');
  std::string_view basename = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->directory_only && !directory) continue;
    if (matches(*it, it->basename_only ? basename : path, ignore_case)) return !it->negated;
  }
  return std::nullopt;
}

}  // namespace torchmigrate::engine
