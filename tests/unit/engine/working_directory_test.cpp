// SPDX-License-Identifier: MIT
// The string short cuts for walk paths agree with std::filesystem wherever they answer.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "torchmigrate/engine/workspace/working_directory.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

TEST_CASE("plain_absolute answers as absolute_path and lexically_normal do, for walk paths only") {
  for (const char* path : {"a.py", "pkg/a.py", "./pkg/a.py", "././pkg/sub/a.py", ".", "./pkg"}) {
    INFO(path);
    std::optional<std::string> plain = plain_absolute(path);
    REQUIRE(plain);
    fs::path normal = absolute_path(path).lexically_normal();
    if (!normal.has_filename()) normal = normal.parent_path();  // `.`: the directory, no trailing `/`
    CHECK(*plain == normal.native());
  }
  for (const char* path : {"", "/abs/a.py", "pkg/../a.py", "pkg/./a.py", "pkg//a.py", "pkg/", "..", "../a.py"}) {
    INFO(path);
    CHECK_FALSE(plain_absolute(path));
  }
}

TEST_CASE("parent_of gives what parent_path gives for paths without a trailing separator") {
  for (const char* path : {"a/b", "a", "/a", "/a/b/c.py", "./a", ".", "a/b/.."}) {
    INFO(path);
    CHECK(std::string(parent_of(path)) == fs::path(path).parent_path().native());
  }
}
