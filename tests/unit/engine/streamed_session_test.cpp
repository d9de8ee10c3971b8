// SPDX-License-Identifier: MIT
// A report run that checks files while the walk still finds them gives what a run over the
// finished list gives: the same outcome for each file, in the list's order, whatever order the
// walk handed them over in and whichever names of one file it dropped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../temp_dir.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/run/session.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

// What a report shows of a file: its path and each finding's code and place.
using Shown = std::vector<std::string>;

Shown shown(const std::vector<FileOutcome>& outcomes, const std::vector<DiscoveredFile>& files) {
  Shown out;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    out.push_back(files[i].path);
    for (const Diagnostic& diagnostic : outcomes[i].diagnostics) {
      out.push_back(std::string(files[i].path)
                        .append(" ")
                        .append(diagnostic.code)
                        .append(" @")
                        .append(std::to_string(diagnostic.range.start)));
    }
  }
  return out;
}

// 100 files, more than a few hand-over batches; every third one has a finding.
std::vector<DiscoveredFile> write_files(const testing::TempDir& dir) {
  for (int i = 0; i < 100; ++i) {
    dir.write(std::string("m").append(std::to_string(i)).append(".py"),
              i % 3 == 0 ? "import torch\nfrom torch.export import export_for_inference\n" : "import torch\n");
  }
  return discover({dir.path.string()}).files;
}

// The first row that differs, for a readable failure.
void check_same(const Shown& got, const Shown& expected) {
  CHECK(got.size() == expected.size());
  for (size_t i = 0; i < std::min(got.size(), expected.size()); ++i) {
    if (got[i] != expected[i]) {
      CHECK(got[i] == expected[i]);
      return;
    }
  }
}

}  // namespace

TEST_CASE("A streamed session gives each file of the final list run_session's outcome") {
  testing::TempDir dir;
  std::vector<DiscoveredFile> files = write_files(dir);
  REQUIRE(files.size() == 100);
  const Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  std::vector<const Linter*> linters(files.size(), &linter);
  Shown expected =
      shown(run_session(linters, files, FixMode::Report, 1, nullptr, false, {}, TextKept::ShownLines), files);
  REQUIRE(std::count_if(expected.begin(), expected.end(),
                        [](const std::string& row) { return row.find(" TM101 ") != std::string::npos; }) == 34);

  auto linter_for = [&](const DiscoveredFile&) -> const Linter& { return linter; };
  for (unsigned jobs : {2U, 3U}) {
    SECTION(std::string("in the list's order, jobs: ").append(std::to_string(jobs))) {
      StreamedSession session(jobs, nullptr, {}, TextKept::ShownLines);
      for (const DiscoveredFile& file : files) session.add(file, file.path, linter_for);
      check_same(shown(session.finish(files, linter_for), files), expected);
    }
    SECTION(std::string("out of order, with a file handed over twice, jobs: ").append(std::to_string(jobs))) {
      StreamedSession session(jobs, nullptr, {}, TextKept::ShownLines);
      for (auto file = files.rbegin(); file != files.rend(); ++file) session.add(*file, file->path, linter_for);
      session.add(files[7], files[7].path, linter_for);  // a name given twice
      check_same(shown(session.finish(files, linter_for), files), expected);
    }
    SECTION(std::string("with files never handed over, jobs: ").append(std::to_string(jobs))) {
      // A real path taken for one seen before (a hash collision): its file is checked at the end.
      StreamedSession session(jobs, nullptr, {}, TextKept::ShownLines);
      for (size_t i = 0; i < files.size(); ++i) {
        if (i % 10 != 3) session.add(files[i], files[i].path, linter_for);
      }
      check_same(shown(session.finish(files, linter_for), files), expected);
    }
  }
}

TEST_CASE("A file reached under several names is checked once, under each name the final list may keep") {
  const Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  auto linter_for = [&](const DiscoveredFile&) -> const Linter& { return linter; };
  std::mutex mutex;
  std::vector<std::string> told;
  StreamedSession session(
      2, nullptr,
      [&](const FileOutcome& outcome) {
        std::lock_guard lock(mutex);
        told.push_back(outcome.source->path());
      },
      TextKept::ShownLines);
  auto named = [](const char* path) { return DiscoveredFile{path, Language::Python, nullptr, false}; };
  session.add(named("/r/b/m.py"), "/real/m.py", linter_for);
  session.add(named("/r/c/m.py"), "/real/m.py", linter_for);  // sorts after b/: never kept
  session.add(named("/r/a/m.py"), "/real/m.py", linter_for);  // sorts first: the list keeps it
  std::vector<FileOutcome> outcomes = session.finish({named("/r/a/m.py")}, linter_for);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].source->path() == "/r/a/m.py");
  std::sort(told.begin(), told.end());
  CHECK(told == std::vector<std::string>{"/r/a/m.py", "/r/b/m.py"});
}

TEST_CASE("A streamed session tells of every file once, and one dropped unfinished stops its workers") {
  testing::TempDir dir;
  std::vector<DiscoveredFile> files = write_files(dir);
  const Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  auto linter_for = [&](const DiscoveredFile&) -> const Linter& { return linter; };
  std::atomic<size_t> told{0};
  {
    StreamedSession session(
        2, nullptr, [&](const FileOutcome&) { ++told; }, TextKept::ShownLines);
    for (const DiscoveredFile& file : files) session.add(file, file.path, linter_for);
    CHECK(session.finish(files, linter_for).size() == files.size());
  }
  CHECK(told == files.size());
  {
    // A walk that failed: the session ends without finish(), and its destructor must return.
    StreamedSession session(3, nullptr, {}, TextKept::ShownLines);
    for (const DiscoveredFile& file : files) session.add(file, file.path, linter_for);
  }
  SUCCEED("the workers were joined");
}

TEST_CASE("A streamed session checks a file that reads its project's facts after the walk, not during it") {
  testing::TempDir dir;
  for (int i = 0; i < 40; ++i) {
    dir.write(std::string("m").append(std::to_string(i)).append(".py"),
              i % 4 == 0 ? "import torch\nm = torch.compile(m, backend=\"onnxrt\")\n" : "import torch\n");
  }
  std::vector<DiscoveredFile> files = discover({dir.path.string()}).files;
  REQUIRE(files.size() == 40);
  // The project's file list is the walk's: asked before the walk ends, a worker would wait.
  std::atomic<bool> walk_over{false};
  std::atomic<bool> listed_during_walk{false};
  Settings settings;
  settings.target = TorchVersion::parse("2.9");
  settings.selection.select = {"TM112"};
  settings.project = std::make_shared<Project>(
      dir.path, TorchRange{},
      [&] {
        if (!walk_over) listed_during_walk = true;
        return files;
      },
      buildfiles::ExtraExtensions{});
  const Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  auto linter_for = [&](const DiscoveredFile&) -> const Linter& { return linter; };

  StreamedSession session(2, nullptr, {}, TextKept::ShownLines);
  for (const DiscoveredFile& file : files) session.add(file, file.path, linter_for);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the worker takes files meanwhile
  walk_over = true;
  std::vector<FileOutcome> outcomes = session.finish(files, linter_for);
  CHECK_FALSE(listed_during_walk);
  CHECK(std::count_if(outcomes.begin(), outcomes.end(), [](const FileOutcome& outcome) {
          return outcome.diagnostics.size() == 1 && outcome.diagnostics[0].code == "TM112";
        }) == 10);
}
