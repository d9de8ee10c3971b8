// SPDX-License-Identifier: MIT
// Discovery keeps paths as strings; their order must stay std::filesystem::path's.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"

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

TEST_CASE("A walk hands each directory's entries to the listings before the filters ask") {
  torchmigrate::testing::TempDir dir;
  dir.write("pkg/torchmigrate.toml", "");
  dir.write("pkg/a.py", "x = 1\n");
  dir.write("pkg/excluded/b.py", "x = 1\n");
  DirectoryListings listings;
  std::vector<bool> configured;  // what the filter learnt of each directory it was asked about
  DiscoveryFilter filter;
  filter.listings = &listings;
  filter.excluded = [&](const fs::path& path, bool directory) {
    if (directory) {
      // Gone from the disk by now: only the walk's own read of the directory still shows it.
      fs::remove(path / "torchmigrate.toml");
      configured.push_back(listings.has_regular_file(fs::absolute(path).native(), "torchmigrate.toml"));
    }
    return path.filename() == "excluded";
  };
  filter.language = [](const fs::path& path) {
    return path.extension() == ".py" ? torchmigrate::Language::Python : torchmigrate::Language::Unknown;
  };
  Discovery discovery = discover({dir.path.string()}, {}, &filter);
  REQUIRE(discovery.files.size() == 1);
  CHECK(discovery.files.front().path == (dir.path / "pkg" / "a.py").string());
  CHECK(configured == std::vector<bool>{true, false});
}
