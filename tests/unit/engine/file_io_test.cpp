// SPDX-License-Identifier: MIT
// Reading and writing files for --fix, on real files in a temporary directory: BOM and encoding
// checks, permissions kept, no write over a changed file, and a crash before the rename (a
// forked child that dies there) leaving the original intact.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "torchmigrate/engine/workspace/file_io.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate::engine;

namespace {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "torchmigrate-io-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }
  [[nodiscard]] fs::path write(const std::string& name, const std::string& bytes, mode_t mode = 0644) const {
    fs::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << bytes;
    ::chmod(file.c_str(), mode);
    return file;
  }
  // Every entry of the directory: a stray temporary file would show up here.
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

mode_t mode_of(const fs::path& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

TEST_CASE("decode_source strips a UTF-8 BOM and encode_source restores it") {
  DecodedSource decoded = decode_source("\xEF\xBB\xBFimport torch\r\n");
  CHECK(decoded.bom);
  CHECK(decoded.text == "import torch\r\n");
  CHECK(decoded.skip_reason.empty());
  CHECK(encode_source(decoded.text, decoded.bom) == "\xEF\xBB\xBFimport torch\r\n");
  DecodedSource plain = decode_source("x = 'é'\n");
  CHECK_FALSE(plain.bom);
  CHECK(encode_source(plain.text, plain.bom) == "x = 'é'\n");
  // A BOM-like sequence later in the file is content, not a mark.
  CHECK_FALSE(decode_source("x = 1 # \xEF\xBB\xBF\n").bom);
}

TEST_CASE("binary and non-UTF-8 content is refused with a reason") {
  CHECK(decode_source(std::string("x = 1\n\0\0", 8)).skip_reason.find("NUL") != std::string::npos);
  CHECK(decode_source("x = '\xE9'\n").skip_reason.find("not valid UTF-8") != std::string::npos);  // Latin-1
  CHECK(decode_source("x = '\xE9'\n").skip_reason.find("offset 5") != std::string::npos);
  CHECK_FALSE(decode_source("x = '\xE2\x82\xAC \xF0\x9F\x94\xA5'\n").skip_reason.size());  // euro sign, emoji
  CHECK(invalid_utf8_offset("\xC0\x80") == 0);          // overlong NUL
  CHECK(invalid_utf8_offset("\xE0\x80\x80") == 0);      // overlong
  CHECK(invalid_utf8_offset("ab\xED\xA0\x80") == 2);    // UTF-16 surrogate
  CHECK(invalid_utf8_offset("\xF4\x90\x80\x80") == 0);  // above U+10FFFF
  CHECK(invalid_utf8_offset("\xF5\x80\x80\x80") == 0);
  CHECK(invalid_utf8_offset("abc\xE2\x82") == 3);       // truncated at the end
  CHECK(invalid_utf8_offset("\xE2\x28\xA1") == 0);      // bad continuation
  CHECK(invalid_utf8_offset("\xF4\x8F\xBF\xBF") == std::string_view::npos);  // U+10FFFF
  // Long ASCII runs are read a word at a time: the bad byte is found at every alignment.
  for (size_t ascii = 0; ascii < 24; ++ascii) {
    std::string run(ascii, 'a');
    CHECK(invalid_utf8_offset(run + "\xE9" + std::string(9, 'b')) == ascii);
    CHECK(invalid_utf8_offset(run + "\xE2\x82\xAC" + std::string(9, 'b') + "\xE2\x82") == ascii + 12);
    CHECK(invalid_utf8_offset(run + "\xF0\x9F\x94\xA5" + run) == std::string_view::npos);
  }
}

TEST_CASE("read_file reports errors and write permission") {
  TempDir dir;
  CHECK_FALSE(read_file(dir.path() / "missing.py").text.has_value());
  CHECK(read_file(dir.path()).error == "not a regular file");
  fs::path writable = dir.write("a.py", "x = 1\n");
  ReadResult read = read_file(writable, true);
  REQUIRE(read.text);
  CHECK(*read.text == "x = 1\n");
  CHECK_FALSE(read.read_only);
  fs::path locked = dir.write("b.py", "x = 1\n", 0444);
  CHECK(read_file(locked, true).read_only);
  CHECK_FALSE(read_file(locked).read_only);  // not asked: a report run never writes
}

TEST_CASE("read_file reads every byte of empty, small and large files") {
  TempDir dir;
  std::string large;
  for (int i = 0; large.size() < 300000; ++i) large += "line " + std::to_string(i) + "\n";
  for (const std::string& bytes : {std::string(), std::string("x"), std::string("a\0b", 3), large}) {
    ReadResult read = read_file(dir.write("f.py", bytes));
    REQUIRE(read.text);
    CHECK(*read.text == bytes);
  }
  // A regular file whose size says nothing (procfs reports 0) is read to its real end.
  ReadResult status = read_file("/proc/self/status");
  REQUIRE(status.text);
  CHECK(status.text->find("VmRSS") != std::string::npos);
}

TEST_CASE("an atomic write replaces the bytes and keeps the permissions, leaving no temporary file") {
  TempDir dir;
  fs::path script = dir.write("run.py", "old\r\n", 0750);
  fs::path plain = dir.write("lib.py", "old\n", 0604);
  CHECK(write_file_atomically(script, "new\r\n", "old\r\n").empty());
  CHECK(write_file_atomically(plain, "\xEF\xBB\xBFnew\n", "old\n").empty());
  CHECK(contents(script) == "new\r\n");
  CHECK(contents(plain) == "\xEF\xBB\xBFnew\n");
  CHECK(mode_of(script) == 0750);
  CHECK(mode_of(plain) == 0604);
  CHECK(dir.entries() == std::vector<std::string>{"lib.py", "run.py"});
}

TEST_CASE("a file changed since it was read is never overwritten") {
  TempDir dir;
  fs::path file = dir.write("a.py", "as read\n");
  SECTION("changed before the write starts") {
    std::ofstream(file, std::ios::binary) << "edited by someone\n";
    std::string error = write_file_atomically(file, "fixed\n", "as read\n");
    CHECK(error.find("changed on disk") != std::string::npos);
  }
  SECTION("changed while the temporary file was being written") {
    WriteHooks hooks;
    hooks.before_rename = [&](const fs::path&) { std::ofstream(file, std::ios::binary) << "edited by someone\n"; };
    std::string error = write_file_atomically(file, "fixed\n", "as read\n", hooks);
    CHECK(error.find("changed on disk") != std::string::npos);
  }
  CHECK(contents(file) == "edited by someone\n");
  CHECK(dir.entries() == std::vector<std::string>{"a.py"});
}

TEST_CASE("a failure between writing the temporary file and the rename leaves the original intact") {
  TempDir dir;
  fs::path file = dir.write("a.py", "original\n", 0640);

  SECTION("an exception there: the temporary file is cleaned up") {
    WriteHooks hooks;
    hooks.before_rename = [](const fs::path&) { throw std::runtime_error("simulated failure"); };
    CHECK_THROWS_WITH(write_file_atomically(file, "fixed\n", "original\n", hooks), "simulated failure");
    CHECK(dir.entries() == std::vector<std::string>{"a.py"});
  }

  SECTION("the process dies there: only a complete hidden temporary file is left beside it") {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      WriteHooks hooks;
      hooks.before_rename = [](const fs::path&) { ::_exit(42); };
      write_file_atomically(file, "fixed\n", "original\n", hooks);
      ::_exit(0);  // the hook did not run: the parent sees a wrong status
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 42);
    std::vector<std::string> names = dir.entries();
    REQUIRE(names.size() == 2);
    CHECK(names[0].starts_with(".a.py.torchmigrate-"));
    CHECK(contents(dir.path() / names[0]) == "fixed\n");
    CHECK(mode_of(dir.path() / names[0]) == 0640);
  }

  CHECK(contents(file) == "original\n");
  CHECK(mode_of(file) == 0640);
}

TEST_CASE("read-only files and files with several hard links are refused, not modified") {
  TempDir dir;
  fs::path read_only = dir.write("ro.py", "x\n", 0444);
  std::string error = write_file_atomically(read_only, "y\n", "x\n");
  CHECK(error.find("read-only") != std::string::npos);
  CHECK(contents(read_only) == "x\n");
  CHECK(mode_of(read_only) == 0444);  // never made writable

  fs::path linked = dir.write("linked.py", "x\n");
  fs::create_hard_link(linked, dir.path() / "other_name.py");
  error = write_file_atomically(linked, "y\n", "x\n");
  CHECK(error.find("hard links") != std::string::npos);
  CHECK(contents(dir.path() / "other_name.py") == "x\n");
}

TEST_CASE("writing through a symbolic link changes its target and keeps the link") {
  TempDir dir;
  fs::create_directory(dir.path() / "real");
  fs::path target = dir.write("real/a.py", "x\n", 0600);
  fs::create_symlink("real/a.py", dir.path() / "link.py");
  CHECK(write_file_atomically(dir.path() / "link.py", "y\n", "x\n").empty());
  CHECK(fs::is_symlink(dir.path() / "link.py"));
  CHECK(contents(target) == "y\n");
  CHECK(mode_of(target) == 0600);
}

TEST_CASE("regular_files_named lists the wanted regular files, links to them included") {
  TempDir dir;
  (void)dir.write("requirements.txt", "torch\n");
  (void)dir.write("requirements-dev.txt", "numpy\n");
  (void)dir.write("notes.txt", "x\n");
  fs::create_directory(dir.path() / "requirements-dir.txt");  // a directory of a wanted name
  fs::create_symlink(dir.path() / "requirements.txt", dir.path() / "requirements-link.txt");
  fs::create_symlink(dir.path() / "missing", dir.path() / "requirements-broken.txt");
  REQUIRE(::mkfifo((dir.path() / "requirements-fifo.txt").c_str(), 0644) == 0);
  std::vector<std::string> names =
      regular_files_named(dir.path(), [](std::string_view name) { return name.starts_with("requirements"); });
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"requirements-dev.txt", "requirements-link.txt", "requirements.txt"});
  CHECK(regular_files_named(dir.path() / "absent", [](std::string_view) { return true; }).empty());
}
