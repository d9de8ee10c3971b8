// SPDX-License-Identifier: MIT
// Discovery keeps paths as strings in std::filesystem::path's order, and tells its filter when each
// named directory's walk begins and ends.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/discovery.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

TEST_CASE("path_order is the order of std::filesystem::path") {
  std::vector<std::string> paths = {"a-x/c.py",  "a/b.py",      "a.b/c.py",    "a/b/c.py", "a/b",
                                    "/abs/z.py", "/abs-x/y.py", "/abs/a/b.py", "z.py",     "A/b.py",
                                    "a/b.pyi",   "../up.py",    "a/.hidden.py"};
  for (const std::string& a : paths) {
    for (const std::string& b : paths) {
      INFO(a << " vs " << b);
      CHECK(path_order(a, b) == (fs::path(a) < fs::path(b)));
    }
  }
}

TEST_CASE("A walk lists its files in path order") {
  torchmigrate::testing::TempDir dir;
  for (const char* name : {"a-x/c.py", "a/b.py", "a.b/c.py", "a/b/c.py", "ab.py"}) dir.write(name, "x = 1\n");
  Discovery discovery = discover({dir.path.string()});
  std::vector<fs::path> listed;
  for (const DiscoveredFile& file : discovery.files) listed.emplace_back(file.path);
  REQUIRE(listed.size() == 5);
  CHECK(std::is_sorted(listed.begin(), listed.end()));
  CHECK(listed.front() == dir.path / "a" / "b" / "c.py");
}

TEST_CASE("The filter hears when each named directory's walk begins and ends, around its questions") {
  torchmigrate::testing::TempDir dir;
  dir.write("one/a.py", "");
  dir.write("two/b.py", "");
  dir.write("c.py", "");
  std::vector<std::string> heard;
  DiscoveryFilter filter;
  filter.walking = [&](const fs::path& root) { heard.push_back("begin " + root.filename().string()); };
  filter.walked = [&](const fs::path& root) { heard.push_back("end " + root.filename().string()); };
  filter.excluded = [&](const fs::path& path, bool) {
    heard.push_back("ask " + path.filename().string());
    return false;
  };
  filter.force_exclude = true;
  discover({(dir.path / "one").string(), (dir.path / "c.py").string(), (dir.path / "two").string()}, {}, &filter);
  CHECK(heard == std::vector<std::string>{"ask one", "begin one", "ask a.py", "end one", "ask c.py", "ask two",
                                          "begin two", "ask b.py", "end two"});
}
