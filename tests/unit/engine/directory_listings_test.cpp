// SPDX-License-Identifier: MIT
// DirectoryListings answers what a stat or open of each name answered: links followed, a
// dangling link absent, a FIFO present but no regular file, names it does not keep asked on disk.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/workspace/directory_listings.hpp"

using namespace torchmigrate::engine;
using torchmigrate::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("A directory's listing answers as the file system does") {
  TempDir dir;
  fs::create_directories(dir.path / ".git");
  std::ofstream(dir.path / "pyproject.toml") << "[project]\n";
  std::ofstream(dir.path / "real.toml") << "";
  fs::create_symlink(dir.path / "real.toml", dir.path / "torchmigrate.toml");
  fs::create_symlink(dir.path / "missing", dir.path / ".gitignore");
  REQUIRE(::mkfifo((dir.path / ".torchmigrate.toml").c_str(), 0600) == 0);
  std::ofstream(dir.path / "notes.md") << "";
  const std::string directory = dir.path.native();

  DirectoryListings listings;
  for (const char* name : {".git", "pyproject.toml", "torchmigrate.toml", ".gitignore", ".torchmigrate.toml",
                           "requirements.txt", "notes.md", "real.toml"}) {
    INFO(name);
    std::error_code error;
    CHECK(listings.has(directory, name) == fs::exists(dir.path / name, error));
    CHECK(listings.has_regular_file(directory, name) == fs::is_regular_file(dir.path / name, error));
  }
  CHECK(DirectoryListings::kept("requirements.txt"));
  CHECK_FALSE(DirectoryListings::kept("notes.md"));
  CHECK(listings.has_regular_file_where(directory, [](std::string_view name) { return name == "torchmigrate.toml"; }));
  CHECK_FALSE(listings.has_regular_file_where(directory, [](std::string_view name) { return name == ".gitignore"; }));
  CHECK_FALSE(listings.has(directory + "/absent", ".git"));
}

TEST_CASE("A listing is read once and kept for the run") {
  TempDir dir;
  const std::string directory = dir.path.native();
  DirectoryListings listings;
  CHECK_FALSE(listings.has(directory, ".git"));
  fs::create_directories(dir.path / ".git");
  // The run's answer stays what it first was, as the per-directory memos above it do.
  CHECK_FALSE(listings.has(directory, ".git"));
  CHECK(DirectoryListings().has(directory, ".git"));
}
