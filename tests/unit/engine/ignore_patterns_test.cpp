// SPDX-License-Identifier: MIT
// git's pathname matching, component by component: `*` stays within a component, `**` spans
// any number of them, and a hostile line of many `**` against a deep path ends at once.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/engine/ignore_patterns.hpp"

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
