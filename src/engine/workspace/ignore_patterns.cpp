// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/ignore_patterns.hpp"

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
    if (pattern.shape == Shape::Wildcards) {
      std::string_view last = std::string_view(pattern.text).substr(pattern.text.rfind('/') + 1);
      if (last != "**") pattern.last_part = std::string(last);
    }
    patterns_.push_back(std::move(pattern));
  }
  for (uint32_t index = 0; index < patterns_.size(); ++index) {
    const Pattern& pattern = patterns_[index];
    if (pattern.basename_only && pattern.shape == Shape::Literal) {
      by_name_[pattern.text].push_back(index);
    } else if (pattern.basename_only && pattern.shape == Shape::StarSuffix) {
      by_suffix_[pattern.text.substr(1)].push_back(index);
      suffix_sizes_.push_back(pattern.text.size() - 1);
    } else {
      scanned_.push_back(index);
    }
  }
  std::sort(suffix_sizes_.begin(), suffix_sizes_.end());
  suffix_sizes_.erase(std::unique(suffix_sizes_.begin(), suffix_sizes_.end()), suffix_sizes_.end());
}

bool IgnorePatterns::matches(const Pattern& pattern, const Subject& subject, bool ignore_case) {
  std::string_view text = subject.text;
  switch (pattern.shape) {
    case Shape::Literal: return equal(pattern.text, text, ignore_case);
    case Shape::StarSuffix: {
      std::string_view suffix = std::string_view(pattern.text).substr(1);
      // `*` stays within a component: a basename has none to cross; a path must not.
      return text.size() >= suffix.size() && equal(text.substr(text.size() - suffix.size()), suffix, ignore_case) &&
             text.substr(0, text.size() - suffix.size()).find('/') == std::string_view::npos;
    }
    case Shape::Wildcards: {
      // Checked apart: `a/**/b` matches `a/b`, where the two overlap.
      if (text.size() < std::max(pattern.prefix.size(), pattern.suffix.size()) ||
          !equal(text.substr(0, pattern.prefix.size()), pattern.prefix, ignore_case) ||
          !equal(text.substr(text.size() - pattern.suffix.size()), pattern.suffix, ignore_case)) {
        return false;
      }
      if (!pattern.last_part.empty()) {
        bool last_matches =
            ::fnmatch(pattern.last_part.c_str(), subject.last_component.c_str(), ignore_case ? FNM_CASEFOLD : 0) == 0;
        // One component against one: that was the whole match.
        bool one_against_one =
            pattern.last_part.size() == pattern.text.size() && text.size() == subject.last_component.size();
        if (!last_matches || one_against_one) return last_matches;
      }
      return wildmatch_path(pattern.text, text, ignore_case);
    }
  }
  return false;
}

std::optional<bool> IgnorePatterns::scan_all(std::string_view path, bool directory, bool ignore_case) const {
  size_t slash = path.rfind('/');
  Subject whole{path, std::string(slash == std::string_view::npos ? path : path.substr(slash + 1))};
  Subject basename{whole.last_component, whole.last_component};
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->directory_only && !directory) continue;
    if (matches(*it, it->basename_only ? basename : whole, ignore_case)) return !it->negated;
  }
  return std::nullopt;
}

std::optional<bool> IgnorePatterns::verdict(std::string_view path, bool directory, bool ignore_case) const {
  if (ignore_case) return scan_all(path, directory, ignore_case);
  size_t slash = path.rfind('/');
  Subject whole{path, std::string(slash == std::string_view::npos ? path : path.substr(slash + 1))};
  Subject basename{whole.last_component, whole.last_component};
  std::string_view name = whole.last_component;
  // The last pattern that matches decides: the indexes give the last of theirs, and the others
  // are tried from the end down to it.
  int64_t best = -1;
  auto take_last_of = [&](const std::vector<uint32_t>& indices) {
    for (auto it = indices.rbegin(); it != indices.rend() && static_cast<int64_t>(*it) > best; ++it) {
      if (patterns_[*it].directory_only && !directory) continue;
      best = *it;
      return;
    }
  };
  if (auto found = by_name_.find(name); found != by_name_.end()) take_last_of(found->second);
  for (size_t size : suffix_sizes_) {
    if (size > name.size()) break;
    if (auto found = by_suffix_.find(name.substr(name.size() - size)); found != by_suffix_.end()) {
      take_last_of(found->second);
    }
  }
  for (auto it = scanned_.rbegin(); it != scanned_.rend() && static_cast<int64_t>(*it) > best; ++it) {
    const Pattern& pattern = patterns_[*it];
    if (pattern.directory_only && !directory) continue;
    if (matches(pattern, pattern.basename_only ? basename : whole, ignore_case)) return !pattern.negated;
  }
  if (best >= 0) return !patterns_[static_cast<size_t>(best)].negated;
  return std::nullopt;
}

}  // namespace torchmigrate::engine
