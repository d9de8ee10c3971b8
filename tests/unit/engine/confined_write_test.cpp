// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "torchmigrate/engine/run/confined_write.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

TEST_CASE("a write through a link is confined to the repository holding the named path") {
  fs::path root = fs::temp_directory_path() / ("torchmigrate-confined-" + std::to_string(::getpid()));
  fs::create_directories(root / "repo" / ".git");
  fs::create_directories(root / "repo" / "pkg");
  fs::create_directories(root / "elsewhere");
  std::ofstream(root / "repo" / "pkg" / "real.py") << "x = 1\n";
  std::ofstream(root / "elsewhere" / "victim.py") << "x = 1\n";
  fs::create_symlink(root / "elsewhere" / "victim.py", root / "repo" / "pkg" / "leak.py");
  fs::create_symlink("real.py", root / "repo" / "pkg" / "alias.py");

  CHECK(write_leaves_project(root / "repo" / "pkg" / "real.py").empty());
  CHECK(write_leaves_project(root / "repo" / "pkg" / "alias.py").empty());
  CHECK_THAT(write_leaves_project(root / "repo" / "pkg" / "leak.py"),
             Catch::Contains("symbolic link to " + (root / "elsewhere" / "victim.py").string() + ", outside the project " +
                             (root / "repo").string()));
  // A path named directly (no link) outside any repository is the user's own choice.
  CHECK(write_leaves_project(root / "elsewhere" / "victim.py").empty());
  fs::remove_all(root);
}
