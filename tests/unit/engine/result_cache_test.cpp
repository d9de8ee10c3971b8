// SPDX-License-Identifier: MIT
// The result cache never serves an entry it cannot verify: flipped bytes, a forged finding or
// an entry from other settings are misses, and the fresh findings replace them. Its one file is
// written once per run, keeps other runs' entries and is replaced, never half-written.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"

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

fs::path cache_file(const fs::path& directory) { return directory / kCacheFileName; }

ResultCache open_cache(const fs::path& directory, std::ostream* warnings = nullptr) {
  std::string problem;
  std::optional<ResultCache> cache = ResultCache::open(engine::Catalog::builtin(), directory, std::nullopt, problem, warnings);
  REQUIRE(cache);
  return std::move(*cache);
}

bool hit(const fs::path& directory, std::string_view path, const std::string& text, const Settings& settings = {}) {
  return open_cache(directory).load(ResultCache::key(path, text, settings), path, settings, text).has_value();
}

// One run that checks `paths`, all holding `text`, and saves.
void run_storing(const fs::path& directory, std::initializer_list<std::string_view> paths,
                 const std::string& text = kText) {
  ResultCache cache = open_cache(directory);
  for (std::string_view path : paths) cache.store(ResultCache::key(path, text, Settings{}), path, Settings{}, {});
  cache.save();
}

// Sets the day an entry was last used (days since 1970) and signs the file again, as an old run
// would have left it. The day follows the entry's key and settings hash.
void set_last_used(const fs::path& file, const std::string& key, uint32_t day) {
  std::string bytes = read(file);
  size_t newline = bytes.find('\n');
  std::string body = bytes.substr(newline + 1);
  size_t at = body.find(key);
  REQUIRE(at != std::string::npos);
  at += key.size() + 4 + 32;  // the settings hash: a length, 32 hex digits
  for (int i = 0; i < 4; ++i) body[at + static_cast<size_t>(i)] = static_cast<char>((day >> (8 * i)) & 0xFF);
  std::string header = bytes.substr(0, newline);
  write(file, header.substr(0, header.rfind(' ') + 1) + cache_hash({body}) + "\n" + body);
}

uint32_t today() {
  return static_cast<uint32_t>(
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()).time_since_epoch().count());
}

ino_t inode(const fs::path& file) {
  struct stat info {};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  return info.st_ino;
}

}  // namespace

TEST_CASE("a stored entry loads back exactly, in the run and after it") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  cache.store(key, "a.py", settings, {finding()});
  CHECK_FALSE(fs::exists(cache_file(dir.path / "cache")));  // written once, by save()
  for (bool saved : {false, true}) {
    if (saved) cache.save();
    std::optional<std::vector<Diagnostic>> loaded = open_cache(dir.path / "cache").load(key, "a.py", settings, kText);
    if (!saved) loaded = cache.load(key, "a.py", settings, kText);
    INFO("saved " << saved);
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
  // Only the file: no temporary is left beside it.
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path / "cache"))
    files += entry.path().filename() != ".gitignore" && entry.path().filename() != "CACHEDIR.TAG";
  CHECK(files == 1);
}

TEST_CASE("every single flipped byte of the cache file makes it a miss") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  cache.store(key, "a.py", settings, {finding()});
  cache.save();
  fs::path file = cache_file(dir.path / "cache");
  const std::string good = read(file);
  for (size_t i = 0; i < good.size(); ++i) {
    for (unsigned char mask : {0x01, 0x20}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      write(file, bad);
      INFO("byte " << i << " ^ " << int(mask));
      CHECK_FALSE(hit(dir.path / "cache", "a.py", kText));
    }
  }
  write(file, good.substr(0, good.size() / 2));
  CHECK_FALSE(hit(dir.path / "cache", "a.py", kText));
  write(file, good + "x");
  CHECK_FALSE(hit(dir.path / "cache", "a.py", kText));
  write(file, good);
  CHECK(hit(dir.path / "cache", "a.py", kText));

  // A file that does not verify is replaced by the run's fresh findings.
  write(file, "torchmigrate-cache 4 0000\n");
  ResultCache again = open_cache(dir.path / "cache");
  CHECK_FALSE(again.load(key, "a.py", settings, kText));
  again.store(key, "a.py", settings, {finding()});
  again.save();
  CHECK(read(file) == good);
}

TEST_CASE("an entry with a valid checksum is still checked against the file and the settings") {
  TempDir dir;
  ResultCache cache = open_cache(dir.path / "cache");
  Settings settings;
  std::string key = ResultCache::key("a.py", kText, settings);
  // Through the file too: what is saved is decoded and checked like what is stored in the run.
  auto stored_with = [&](Diagnostic diagnostic) {
    cache.store(key, "a.py", settings, {std::move(diagnostic)});
    bool in_run = cache.load(key, "a.py", settings, kText).has_value();
    cache.save();
    CHECK(hit(dir.path / "cache", "a.py", kText) == in_run);
    return in_run;
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
  Diagnostic with_torch = finding();
  with_torch.fixes[0].requirements.torch = TorchVersion::parse("2.8");
  CHECK(stored_with(with_torch));

  // Read with other settings, or for another file or text, an entry does not verify.
  cache.store(key, "a.py", settings, {finding()});
  Settings other;
  other.unsafe_fixes = true;
  CHECK_FALSE(cache.load(key, "a.py", other, kText));
  CHECK_FALSE(cache.load(ResultCache::key("b.py", kText, settings), "b.py", settings, kText));
  CHECK_FALSE(cache.load(ResultCache::key("a.py", kText + "\n", settings), "a.py", settings, kText + "\n"));
}

TEST_CASE("a run's save keeps other files' entries and replaces a changed file's") {
  TempDir dir;
  const fs::path directory = dir.path / "cache";
  const std::string changed = kText + "x = 1\n";
  run_storing(directory, {"a.py", "b.py"});
  run_storing(directory, {"a.py"}, changed);  // a.py changed; b.py not checked this time
  CHECK(hit(directory, "a.py", changed));
  CHECK_FALSE(hit(directory, "a.py", kText));  // replaced, not kept beside the new text
  CHECK(hit(directory, "b.py", kText));

  // Two runs that overlap: the second to save re-reads the file and keeps the first's entries.
  Settings settings;
  ResultCache one = open_cache(directory);
  ResultCache two = open_cache(directory);
  one.store(ResultCache::key("c.py", kText, settings), "c.py", settings, {});
  two.store(ResultCache::key("d.py", kText, settings), "d.py", settings, {});
  one.save();
  two.save();
  for (const char* path : {"b.py", "c.py", "d.py"}) CHECK(hit(directory, path, kText));
}

TEST_CASE("a warm run writes nothing; entries unused for 30 days are dropped") {
  TempDir dir;
  const fs::path directory = dir.path / "cache";
  Settings settings;
  run_storing(directory, {"old.py", "recent.py"});
  const ino_t written = inode(cache_file(directory));
  {
    ResultCache warm = open_cache(directory);
    CHECK(warm.load(ResultCache::key("old.py", kText, settings), "old.py", settings, kText));
    warm.save();
  }
  CHECK(inode(cache_file(directory)) == written);

  set_last_used(cache_file(directory), ResultCache::key("old.py", kText, settings), today() - 31);
  set_last_used(cache_file(directory), ResultCache::key("recent.py", kText, settings), today() - 29);
  run_storing(directory, {"new.py"});
  CHECK_FALSE(hit(directory, "old.py", kText));
  CHECK(hit(directory, "recent.py", kText));
  CHECK(hit(directory, "new.py", kText));
}

TEST_CASE("a cache file that cannot be written is said once") {
  TempDir dir;
  std::ostringstream warnings;
  ResultCache cache = open_cache(dir.path / "cache", &warnings);
  fs::create_directories(cache_file(dir.path / "cache") / "in-the-way");
  Settings settings;
  for (const char* path : {"a.py", "b.py"}) {
    cache.store(ResultCache::key(path, kText, settings), path, settings, {});
    cache.save();
  }
  std::string said = warnings.str();
  CHECK(said.find("cannot write the cache") != std::string::npos);
  CHECK(said.find("cannot write the cache") == said.rfind("cannot write the cache"));
  size_t left = 0;
  for (const auto& entry : fs::directory_iterator(dir.path / "cache"))
    left += entry.path().string().find(".tmp") != std::string::npos;
  CHECK(left == 0);
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
  CHECK_FALSE(ResultCache::open(engine::Catalog::builtin(), dir.path / "project" / "link" / "cache", dir.path / "project", problem));
  CHECK_THAT(problem, Catch::Contains("not inside"));
  CHECK_FALSE(fs::exists(dir.path / "outside" / "cache"));
  CHECK_FALSE(ResultCache::open(engine::Catalog::builtin(), dir.path / "project", dir.path / "project", problem));
  CHECK_FALSE(ResultCache::open(engine::Catalog::builtin(), dir.path / "outside" / "c", dir.path / "project", problem));
  CHECK(ResultCache::open(engine::Catalog::builtin(), dir.path / "project" / ".cache", dir.path / "project", problem));

  std::ofstream(dir.path / "project" / "file") << "x";
  CHECK_FALSE(ResultCache::open(engine::Catalog::builtin(), dir.path / "project" / "file", std::nullopt, problem));
  CHECK_THAT(problem, Catch::Contains("not a directory"));
}

TEST_CASE("An unchanged file is served by its stamp without being read; a write, even a recent one, is a miss") {
  TempDir dir;
  const fs::path cache_dir = dir.path / "cache";
  Settings settings;
  auto path_of = [&](const std::string& name) { return (dir.path / name).string(); };
  for (const char* name : {"clean.py", "edited.py", "same_size.py", "finding.py"}) dir.write(name, "x = 1\n");
  // Times well before the run: a file written in the run's own clock tick is never trusted.
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  dir.write("recent.py", "x = 1\n");
  auto slot_of = [&](const std::string& name) {
    return ResultCache::slot(path_of(name), settings, ResultCache::settings_fingerprint(settings, {}));
  };
  auto fingerprint = ResultCache::settings_fingerprint(settings, {});
  auto unchanged = [&](const ResultCache& cache, const std::string& name) {
    std::optional<ResultCache::FileStamp> stamp = ResultCache::stamp(path_of(name));
    REQUIRE(stamp);
    return cache.unchanged_without_findings(slot_of(name), fingerprint, *stamp);
  };
  {
    ResultCache cache = open_cache(cache_dir);
    for (const char* name : {"clean.py", "edited.py", "same_size.py", "finding.py", "recent.py"}) {
      CHECK_FALSE(unchanged(cache, name));
      std::optional<ResultCache::FileStamp> stamp = ResultCache::stamp(path_of(name));
      std::vector<Diagnostic> found;
      if (std::string(name) == "finding.py") found.push_back({"TM201", "m", {0, 1}, Severity::Warning, {}});
      cache.store(ResultCache::key(slot_of(name), "x = 1\n"), fingerprint, found, stamp);
    }
    cache.save();
  }
  dir.write("edited.py", "x = 2  # longer\n");
  // Same size, modification time put back: the change time still moves.
  auto written = fs::last_write_time(path_of("same_size.py"));
  dir.write("same_size.py", "y = 1\n");
  fs::last_write_time(path_of("same_size.py"), written);

  ResultCache cache = open_cache(cache_dir);
  CHECK(unchanged(cache, "clean.py"));
  CHECK_FALSE(unchanged(cache, "edited.py"));
  CHECK_FALSE(unchanged(cache, "same_size.py"));
  CHECK_FALSE(unchanged(cache, "finding.py"));  // findings need the text their ranges refer to
  CHECK_FALSE(unchanged(cache, "recent.py"));
  std::optional<ResultCache::FileStamp> clean = ResultCache::stamp(path_of("clean.py"));
  CHECK_FALSE(cache.unchanged_without_findings(slot_of("clean.py"), "other settings", *clean));
}
