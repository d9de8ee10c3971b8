// SPDX-License-Identifier: MIT
// GitIgnore asks git about each path in the repository it lies in; however the path is spelled,
// the answer is git's.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/gitignore.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

void git_init(const fs::path& directory) {
  fs::create_directories(directory);
  REQUIRE(std::system(("git init -q '" + directory.string() + "'").c_str()) == 0);
}

}  // namespace

TEST_CASE("Ignored paths are found however they are spelled, in the repository they lie in") {
  torchmigrate::testing::TempDir tree;
  fs::path root = fs::canonical(tree.path);
  git_init(root / "repo");
  git_init(root / "repo" / "deep" / "inner");
  tree.write("repo/.gitignore", "ignored/\nskip_me.py\nsub/*.log\n");
  tree.write("repo/deep/inner/.gitignore", "inner_only.py\n");
  for (const char* file : {"repo/kept.py", "repo/skip_me.py", "repo/ignored/a.py", "repo/sub/x.log", "repo/sub/x.py",
                           "repo/deep/inner/skip_me.py", "repo/deep/inner/inner_only.py", "outside/skip_me.py"}) {
    tree.write(file, "");
  }
  GitIgnore gitignore;
  struct Case {
    fs::path path;
    bool directory;
    bool ignored;
  };
  const std::vector<Case> cases = {
      {root / "repo/kept.py", false, false},
      {root / "repo/skip_me.py", false, true},
      {root / "repo/sub/../skip_me.py", false, true},
      {root / "repo/sub/./x.log", false, true},
      {root / "repo/sub/x.py", false, false},
      {root / "repo/ignored", true, true},
      {root / "repo/ignored/", true, true},
      {root / "repo/sub", true, false},
      {root / "repo", true, false},
      {root / "repo/deep/inner/skip_me.py", false, false},  // the inner repository's own rules
      {root / "repo/deep/inner/inner_only.py", false, true},
      {root / "repo/deep/../deep/inner/inner_only.py", false, true},
      {root / "outside/skip_me.py", false, false},
  };
  // Twice: the second round is answered with the repositories remembered per directory.
  for (int round = 0; round < 2; ++round) {
    for (const Case& c : cases) {
      INFO(c.path.string());
      CHECK(gitignore.is_ignored(c.path, c.directory) == c.ignored);
    }
  }
}
