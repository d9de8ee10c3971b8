// SPDX-License-Identifier: MIT
// GitIgnore answers as git does for each path in the repository it lies in, however the path is
// spelled; git itself (`git check-ignore`) is the reference.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/workspace/gitignore.hpp"

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

// Which of `paths` (relative to `repository`, '/'-separated) git ignores.
std::set<std::string> ignored_by_git(const fs::path& repository, const std::vector<std::string>& paths) {
  torchmigrate::testing::TempDir scratch;
  std::ofstream(scratch.path / "in") << [&] {
    std::string text;
    for (const std::string& path : paths) text += path + "\n";
    return text;
  }();
  std::string command = "git -C '" + repository.string() + "' check-ignore --no-index --stdin < '" +
                        (scratch.path / "in").string() + "' > '" + (scratch.path / "out").string() + "'";
  REQUIRE(std::system(command.c_str()) != -1);
  std::set<std::string> ignored;
  std::ifstream out(scratch.path / "out");
  for (std::string line; std::getline(out, line);) ignored.insert(line);
  return ignored;
}

// Compares GitIgnore with git on every entry a walk of `repository` meets, level by level (git
// is asked about a directory's entries only once the directory is known not to be ignored).
size_t compare_walk(const fs::path& repository, GitIgnore& gitignore) {
  size_t compared = 0;
  std::vector<fs::path> level = {repository};
  while (!level.empty()) {
    std::vector<std::pair<fs::path, bool>> entries;
    for (const fs::path& directory : level) {
      for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
        if (entry.path().filename() == ".git" || fs::exists(entry.path() / ".git")) continue;
        entries.emplace_back(entry.path(), entry.is_directory());
      }
    }
    std::vector<std::string> relative;
    for (const auto& [path, directory] : entries) {
      // No trailing '/': git finds directories on disk, as a walk does (with one, an empty
      // pattern would match the empty name after it).
      relative.push_back(path.lexically_relative(repository).generic_string());
    }
    std::set<std::string> ignored = ignored_by_git(repository, relative);
    level.clear();
    for (size_t i = 0; i < entries.size(); ++i) {
      INFO(relative[i]);
      bool expected = ignored.contains(relative[i]);
      CHECK(gitignore.is_ignored(entries[i].first, entries[i].second) == expected);
      ++compared;
      if (entries[i].second && !expected) level.push_back(entries[i].first);
    }
  }
  return compared;
}

}  // namespace

TEST_CASE("Every verdict of a walk is git's own") {
  torchmigrate::testing::TempDir tree;
  fs::path root = fs::canonical(tree.path);
  fs::path repo = root / "repo";
  git_init(repo);
  tree.write("repo/.gitignore",
             "# comment\n\\#hash.py\n*.log\n!keep.log\n/top_only.py\ngen/\n**/cache/**\ndocs/*.py\n"
             "!docs/conf.py\nsecret*\ntrailing.py   \nescaped\\ .py\n*.tmp\r\n[abc]_x.py\nq?.py\n"
             "a/**/z.py\n**/deep_any.py\nlib/*/mid.py\nbuild\n!\n/\n");
  tree.write("repo/pkg/.gitignore", "local.py\n!secret_ok.py\n/anchored.py\nsub/*.py\n!*.log\n");
  tree.write("repo/.git/info/exclude", "excluded_by_info.py\n");
  tree.write("repo/other_ignore", "by_global.py\n");
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
                           "repo/pkg/x.log",
                           "repo/pkg/cache/deep/c.py",
                           "repo/cache/c.py",
                           "repo/docs/index.py",
                           "repo/docs/conf.py",
                           "repo/docs/sub/index.py",
                           "repo/excluded_by_info.py",
                           "repo/pkg/excluded_by_info.py",
                           "repo/by_global.py",
                           "repo/#hash.py",
                           "repo/trailing.py",
                           "repo/escaped .py",
                           "repo/t.tmp",
                           "repo/b_x.py",
                           "repo/d_x.py",
                           "repo/q1.py",
                           "repo/q12.py",
                           "repo/a/z.py",
                           "repo/a/b/c/z.py",
                           "repo/x/a/z.py",
                           "repo/p/q/deep_any.py",
                           "repo/deep_any.py",
                           "repo/lib/one/mid.py",
                           "repo/lib/one/two/mid.py",
                           "repo/build",
                           "repo/pkg/anchored.py",
                           "repo/pkg/deeper/anchored.py",
                           "repo/pkg/sub/s.py",
                           "repo/pkg/sub/deeper/s.py",
                           "repo/Keep.LOG",
                           "repo/[odd] dir/a b.py"}) {
    tree.write(file, "");
  }
  git(repo, "add -f gen/out.py");  // tracked, yet its directory is ignored
  // core.excludesFile from a file the global configuration includes; git reads the same file.
  tree.write("gitconfig", "[user]\n\tname = t\n[include]\n\tpath = more_config\n");
  tree.write("more_config", "[core]\n\texcludesFile = " + (repo / "other_ignore").string() + "\n");
  const char* saved = std::getenv("GIT_CONFIG_GLOBAL");
  std::string saved_value = saved != nullptr ? saved : "";
  ::setenv("GIT_CONFIG_GLOBAL", (root / "gitconfig").c_str(), 1);
  SECTION("case-sensitive") {
    GitIgnore gitignore;
    CHECK(compare_walk(repo, gitignore) > 40);
  }
  SECTION("core.ignoreCase") {
    git(repo, "config core.ignorecase true");
    GitIgnore gitignore;
    CHECK(compare_walk(repo, gitignore) > 40);
    CHECK(gitignore.is_ignored(repo / "Keep.LOG", false) == false);  // `!keep.log`, whatever the case
  }
  if (saved != nullptr) {
    ::setenv("GIT_CONFIG_GLOBAL", saved_value.c_str(), 1);
  } else {
    ::unsetenv("GIT_CONFIG_GLOBAL");
  }
}

TEST_CASE("A whitelist .gitignore ignores all but what it re-includes, as git does") {
  torchmigrate::testing::TempDir tree;
  fs::path repo = fs::canonical(tree.path) / "repo";
  git_init(repo);
  tree.write("repo/.gitignore", "*\n!*/\n!*.py\n!.gitignore\nsrc/generated/\n");
  for (const char* file : {"repo/a.py", "repo/a.txt", "repo/src/b.py", "repo/src/b.json", "repo/src/generated/c.py",
                           "repo/src/deep/d.py"}) {
    tree.write(file, "");
  }
  GitIgnore gitignore;
  CHECK(compare_walk(repo, gitignore) >= 8);
  CHECK(gitignore.is_ignored(repo / "src" / "b.json", false));
  CHECK_FALSE(gitignore.is_ignored(repo / "src" / "deep" / "d.py", false));
}

TEST_CASE("A worktree takes info/exclude from the repository it belongs to") {
  torchmigrate::testing::TempDir tree;
  fs::path root = fs::canonical(tree.path);
  fs::path repo = root / "repo";
  git_init(repo);
  tree.write("repo/a.py", "");
  git(repo, "add a.py");
  git(repo, "-c user.name=t -c user.email=t@t commit -qm init");
  git(repo, "worktree add -q ../linked");
  tree.write("repo/.git/info/exclude", "excluded_by_info.py\n");
  tree.write("linked/excluded_by_info.py", "");
  tree.write("linked/kept.py", "");
  GitIgnore gitignore;
  CHECK(gitignore.is_ignored(root / "linked" / "excluded_by_info.py", false));
  CHECK_FALSE(gitignore.is_ignored(root / "linked" / "kept.py", false));
}

TEST_CASE("A .gitignore that is no regular file is read as empty, never waited on") {
  torchmigrate::testing::TempDir tree;
  fs::path repo = fs::canonical(tree.path) / "repo";
  git_init(repo);
  tree.write("repo/a.py", "");
  REQUIRE(::mkfifo((repo / ".gitignore").c_str(), 0644) == 0);  // opened for reading, it would block
  GitIgnore gitignore;
  CHECK_FALSE(gitignore.is_ignored(repo / "a.py", false));
}

TEST_CASE("The last directory remembered never answers for a path spelled otherwise") {
  torchmigrate::testing::TempDir tree;
  fs::path root = fs::canonical(tree.path);
  git_init(root / "repo");
  tree.write("repo/.gitignore", "sub/y.py\n/top.py\n");
  tree.write("repo/sub/y.py", "");
  tree.write("repo/top.py", "");
  const std::string repo = (root / "repo").string();
  // Pairs asked in a row: the first may leave a directory remembered, the second must not take it.
  const std::vector<std::pair<std::string, std::string>> rows = {
      {repo + "/sub/", repo + "/sub/y.py"},   {repo + "/sub/.", repo + "/sub/y.py"},
      {repo + "/sub/..", repo + "/sub/y.py"}, {repo + "/sub/y.py", repo + "/sub//y.py"},
      {repo + "//top.py", repo + "/top.py"},  {repo + "/sub/y.py", repo + "/sub/../top.py"},
      {repo + "/top.py", repo + "/sub/y.py"},
  };
  for (const auto& [first, second] : rows) {
    INFO(first << " then " << second);
    GitIgnore walked;
    (void)walked.is_ignored(first, false);
    CHECK(walked.is_ignored(second, false) == GitIgnore().is_ignored(second, false));
    CHECK(GitIgnore().is_ignored(second, false));
  }
}
