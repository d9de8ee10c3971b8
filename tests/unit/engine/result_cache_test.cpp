// SPDX-License-Identifier: MIT
// The result cache never serves an entry it cannot verify: flipped bytes, a forged finding or
// an entry from other settings are misses, and the fresh findings replace them.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/result_cache.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;
using torchmigrate::testing::TempDir;

namespace {

const std::string kText = "import torch\ntorch.export.export(m, (x,))\n";

Diagnostic finding() {
  Fix fix;
  fix.title = "Pass `strict=True`";
  fix.edits.push_back({{40, 40}, ", strict=True"});
  fix.policy = FixPolicy::KeepOld;
  return {"TM201", "`torch.export.export` defaults to `strict=False`", {13, 32}, Severity::Warning, {fix}};
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& file, const std::string& bytes) { std::ofstream(file, std::ios::binary) << bytes; }

fs::path only_entry(const fs::path& directory) {
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.path().extension() == ".json") return entry.path();
  }
  FAIL("no cache entry");
  return {};
}

ResultCache open_cache(const fs::path& directory) {
  std::string problem;
  std::optional<ResultCache> cache = ResultCache::open(directory, std::nullopt, problem);
  REQUIRE(cache);
  return std::move(*cache);
}

}  // namespace

TEST_CASE("a stored entry loads back exactly") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  cache.store(key, "a.py", settings, {finding()});
  std::optional<std::vector<Diagnostic>> loaded = cache.load(key, "a.py", settings, kText);
  REQUIRE(loaded);
  REQUIRE(loaded->size() == 1);
  const Diagnostic& diagnostic = loaded->front();
  CHECK(diagnostic.code == "TM201");
  CHECK(diagnostic.message == finding().message);
  CHECK(diagnostic.range.start == 13);
  CHECK(diagnostic.range.end == 32);
  CHECK(diagnostic.severity == Severity::Warning);
  REQUIRE(diagnostic.fixes.size() == 1);
  CHECK(diagnostic.fixes[0].edits[0].replacement == ", strict=True");
  CHECK(diagnostic.fixes[0].policy == FixPolicy::KeepOld);
}

TEST_CASE("every single flipped byte of an entry makes it a miss") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  cache.store(key, "a.py", settings, {finding()});
  fs::path entry = only_entry(dir.path / "cache");
  const std::string good = read(entry);
  for (size_t i = 0; i < good.size(); ++i) {
    for (unsigned char mask : {0x01, 0x20}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      write(entry, bad);
      INFO("byte " << i << " ^ " << int(mask));
      CHECK_FALSE(cache.load(key, "a.py", settings, kText));
    }
  }
  write(entry, good.substr(0, good.size() / 2));
  CHECK_FALSE(cache.load(key, "a.py", settings, kText));
  write(entry, good);
  CHECK(cache.load(key, "a.py", settings, kText));
}

TEST_CASE("an entry with a valid checksum is still checked against the file and the settings") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  auto stored_with = [&](Diagnostic diagnostic) {
    cache.store(key, "a.py", settings, {std::move(diagnostic)});
    return cache.load(key, "a.py", settings, kText).has_value();
  };
  CHECK(stored_with(finding()));
  Diagnostic unknown = finding();
  unknown.code = "TM999";
  CHECK_FALSE(stored_with(unknown));
  Diagnostic past_the_end = finding();
  past_the_end.range = {13, static_cast<uint32_t>(kText.size() + 1)};
  CHECK_FALSE(stored_with(past_the_end));
  Diagnostic reversed = finding();
  reversed.range = {20, 13};
  CHECK_FALSE(stored_with(reversed));
  Diagnostic bad_severity = finding();
  bad_severity.severity = static_cast<Severity>(7);
  CHECK_FALSE(stored_with(bad_severity));
  Diagnostic bad_edit = finding();
  bad_edit.fixes[0].edits[0].range = {500, 501};
  CHECK_FALSE(stored_with(bad_edit));

  // An entry copied under another key, or read with other settings, does not verify.
  cache.store(key, "a.py", settings, {finding()});
  Settings other;
  other.unsafe_fixes = true;
  CHECK_FALSE(cache.load(key, "a.py", other, kText));
  std::string other_key = ResultCache::key("b.py", kText, settings);
  fs::path entry = only_entry(dir.path / "cache");
  fs::path copy = dir.path / "cache" / other_key.substr(0, 2) / (other_key.substr(2) + ".json");
  fs::create_directories(copy.parent_path());
  fs::copy_file(entry, copy);
  CHECK_FALSE(cache.load(other_key, "b.py", settings, kText));
}

TEST_CASE("a created cache directory is marked; an existing one is left as it is") {
  TempDir dir;
  open_cache(dir.path / "new" / "cache");
  CHECK(read(dir.path / "new" / "cache" / ".gitignore").find("\n*\n") != std::string::npos);
  CHECK(fs::exists(dir.path / "new" / "cache" / "CACHEDIR.TAG"));
  CHECK_FALSE(fs::exists(dir.path / "new" / "CACHEDIR.TAG"));
  fs::create_directories(dir.path / "mine");
  open_cache(dir.path / "mine");
  CHECK_FALSE(fs::exists(dir.path / "mine" / "CACHEDIR.TAG"));
  CHECK_FALSE(fs::exists(dir.path / "mine" / ".gitignore"));
}

TEST_CASE("a configured cache directory must resolve inside the project") {
  TempDir dir;
  fs::create_directories(dir.path / "project");
  fs::create_directories(dir.path / "outside");
  fs::create_symlink(dir.path / "outside", dir.path / "project" / "link");
  std::string problem;
  CHECK_FALSE(ResultCache::open(dir.path / "project" / "link" / "cache", dir.path / "project", problem));
  CHECK_THAT(problem, Catch::Contains("not inside"));
  CHECK_FALSE(fs::exists(dir.path / "outside" / "cache"));
  CHECK_FALSE(ResultCache::open(dir.path / "project", dir.path / "project", problem));
  CHECK_FALSE(ResultCache::open(dir.path / "outside" / "c", dir.path / "project", problem));
  CHECK(ResultCache::open(dir.path / "project" / ".cache", dir.path / "project", problem));

  std::ofstream(dir.path / "project" / "file") << "x";
  CHECK_FALSE(ResultCache::open(dir.path / "project" / "file", std::nullopt, problem));
  CHECK_THAT(problem, Catch::Contains("not a directory"));
}
