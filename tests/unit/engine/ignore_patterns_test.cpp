// SPDX-License-Identifier: MIT
// git's pathname matching, component by component: `*` stays within a component, `**` spans
// any number of them, and a hostile line of many `**` against a deep path ends at once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/ignore_patterns.hpp"

using namespace torchmigrate::engine;

TEST_CASE("wildmatch_path: `*` stays in a component and `**` spans any number of them") {
  struct Case {
    const char* pattern;
    const char* path;
    bool matches;
  };
  const Case cases[] = {
      {"a/**/b", "a/b", true},       {"a/**/b", "a/x/b", true},
      {"a/**/b", "a/x/y/b", true},   {"a/**/b", "a/bc", false},
      {"**/b", "b", true},           {"**/b", "x/y/b", true},
      {"a/**", "a/x", true},         {"a/**", "a/x/y", true},
      {"a/**", "a", false},          {"a/*.py", "a/b.py", true},
      {"a/*.py", "a/b/c.py", false}, {"a/?.py", "a/b.py", true},
      {"a/[bc].py", "a/c.py", true}, {"a/[!bc].py", "a/c.py", false},
      {"A/b", "a/B", false},
  };
  for (const Case& c : cases) {
    INFO(c.pattern << " against " << c.path);
    CHECK(wildmatch_path(c.pattern, c.path, false) == c.matches);
  }
  CHECK(wildmatch_path("A/b", "a/B", true));
}

TEST_CASE("wildmatch_path: many `**` against a deep path that fails ends at once") {
  std::string pattern = "**/";
  for (int i = 0; i < 14; ++i) pattern += "a/**/";
  pattern += "c/**/b";
  std::string path;
  for (int i = 0; i < 60; ++i) path += "a/";
  path += "b";
  // Without remembering failed (pattern, path) positions this tries C(60, 14) spreads.
  CHECK_FALSE(wildmatch_path(pattern, path, false));
  CHECK(wildmatch_path(pattern, path.substr(0, path.size() - 1) + "c/b", false));
}

namespace {

// gitignore(5) read literally: the last line whose pattern matches decides, each line tried
// with wildmatch_path against the path, or against its last component when it has no `/`.
std::optional<bool> reference_verdict(const std::vector<std::string>& lines, const std::string& path, bool directory,
                                      bool ignore_case) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::string_view line = *it;
    bool negated = line.starts_with('!');
    if (negated) line.remove_prefix(1);
    bool directory_only = line.ends_with('/');
    if (directory_only) line.remove_suffix(1);
    if (directory_only && !directory) continue;
    bool basename_only = line.find('/') == std::string_view::npos;
    if (line.starts_with('/')) line.remove_prefix(1);
    std::string_view subject = path;
    if (basename_only) subject = subject.substr(subject.rfind('/') + 1);
    if (wildmatch_path(line, subject, ignore_case)) return !negated;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("IgnorePatterns: the looked-up names and suffixes give the verdict of trying every line") {
  const std::vector<std::string> vocabulary = {
      "a.py",  "b",     "*.py",   "*.pyc",  "*",    "*/*.so*", "*/**/*.py", "src/", "/a.py", "!a.py",
      "!*.py", "!b",    "b/",     "x/a.py", "x/**", "**/b",    "*.py[co]",  "?.py", "/x*",   "x*",
      "!x/",   "a*.py", "**/x/*", "*.so",   "!/b",  "[ab].py", "*~",        "/?1"};
  const std::vector<std::string> paths = {"a.py",  "b",     "x/a.py",  "x/b",      "x/y/a.py", "src",
                                          "x/src", "a.pyc", "x/c.so1", "y/x/a.so", "c.pyo",    "x1/a.py",
                                          "x",     "b~",    "y/x1",    "X/A.PY"};
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>(state >> 33);
  };
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> lines;
    std::string text;
    for (size_t count = next() % 9; count > 0; --count) {
      lines.push_back(vocabulary[next() % vocabulary.size()]);
      text += lines.back() + '\n';
    }
    IgnorePatterns patterns(text);
    for (const std::string& path : paths) {
      for (bool directory : {false, true}) {
        for (bool ignore_case : {false, true}) {
          INFO(text << "path: " << path << (directory ? " (directory)" : "") << (ignore_case ? " ignoring case" : ""));
          CHECK(patterns.verdict(path, directory, ignore_case) ==
                reference_verdict(lines, path, directory, ignore_case));
        }
      }
    }
  }
}
