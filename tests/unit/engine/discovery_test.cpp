// SPDX-License-Identifier: MIT
// Discovery keeps paths as strings; their order must stay std::filesystem::path's.
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
