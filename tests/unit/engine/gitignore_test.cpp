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

namespace {

void git(const fs::path& repository, const std::string& arguments) {
  REQUIRE(std::system(("git -C '" + repository.string() + "' " + arguments + " >/dev/null 2>&1").c_str()) == 0);
}

// Every file and directory below `root`, as the walk would meet them (no `.git`).
std::vector<std::pair<fs::path, bool>> entries_below(const fs::path& root) {
  std::vector<std::pair<fs::path, bool>> entries;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    entries.emplace_back(it->path(), it->is_directory());
  }
  return entries;
}

}  // namespace

TEST_CASE("A walk's verdicts come from one listing and equal git's answer for each path alone") {
  torchmigrate::testing::TempDir tree;
  fs::path root = fs::canonical(tree.path);
  fs::path repo = root / "repo";
  git_init(repo);
  git_init(repo / "vendor" / "nested");
  tree.write("repo/.gitignore",
             "*.log\n!keep.log\n/top_only.py\ngen/\n**/cache/**\ndocs/*.py\n!docs/conf.py\nsecret*\n");
  tree.write("repo/pkg/.gitignore", "local.py\n!secret_ok.py\n");
  tree.write("repo/.git/info/exclude", "excluded_by_info.py\n");
  tree.write("repo/vendor/nested/.gitignore", "nested_only.py\n");
  for (const char* file : {"repo/a.py",
                           "repo/x.log",
                           "repo/keep.log",
                           "repo/top_only.py",
                           "repo/pkg/top_only.py",
                           "repo/pkg/local.py",
                           "repo/pkg/secret.py",
                           "repo/pkg/secret_ok.py",
                           "repo/gen/out.py",
                           "repo/pkg/gen/out.py",
                           "repo/pkg/cache/deep/c.py",
                           "repo/docs/index.py",
                           "repo/docs/conf.py",
                           "repo/docs/sub/index.py",
                           "repo/excluded_by_info.py",
                           "repo/pkg/excluded_by_info.py",
                           "repo/build/made.py",
                           "repo/build/made.log",
                           "repo/.venv/lib/site.py",
                           "repo/gen/tracked.py",
                           "repo/vendor/nested/nested_only.py",
                           "repo/vendor/nested/a.log",
                           "repo/vendor/nested/b.py",
                           "repo/[odd] dir/a b.py"}) {
    tree.write(file, "");
  }
  git(repo, "add -f gen/tracked.py");  // tracked, yet git still calls it ignored (its directory is)

  auto check_walk = [&](const fs::path& walk_root, size_t most_asked_alone) {
    GitIgnore alone, walked;
    walked.walking(walk_root);
    size_t checked = 0;
    for (const auto& [path, directory] : entries_below(walk_root)) {
      INFO(path.string());
      CHECK(walked.is_ignored(path, directory) == alone.is_ignored(path, directory));
      ++checked;
    }
    CHECK(checked > 10);
    CHECK(walked.paths_asked_alone() <= most_asked_alone);
    CHECK(alone.paths_asked_alone() >= checked - 5);  // what the listing saves
  };
  // gen/, cache/, the pruned build/ and .venv/, and what lies in those two (never listed)
  SECTION("the repository's root") { check_walk(repo, 3 + 10); }
  SECTION("a directory above it, holding the repository") { check_walk(root, 3 + 10); }
  SECTION("a directory inside it") { check_walk(repo / "pkg", 1 + 4); }
  SECTION("a finished walk is forgotten: a file made since is asked about alone") {
    GitIgnore walked;
    walked.walking(repo);
    CHECK_FALSE(walked.is_ignored(repo / "a.py", false));
    walked.walked(repo);
    tree.write("repo/made_later.log", "");
    CHECK(walked.is_ignored(repo / "made_later.log", false));
  }
  SECTION("an ignored directory") {
    GitIgnore walked;
    walked.walking(repo / "gen");
    CHECK(walked.is_ignored(repo / "gen" / "out.py", false));
    CHECK(walked.is_ignored(repo / "gen" / "tracked.py", false));
  }
}
