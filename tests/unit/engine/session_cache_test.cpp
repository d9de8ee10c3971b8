// SPDX-License-Identifier: MIT
// A cached run reads only what it must: a clean file is served by its stamp, a build file too
// when no rule firing on its text reads a project fact; a file whose rules read facts is read,
// since its key holds them.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "../temp_dir.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"
#include "torchmigrate/engine/run/session.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;

TEST_CASE("A warm run leaves unread every clean file whose key holds no project fact") {
  torchmigrate::testing::TempDir dir;
  dir.write("model.py", "import torch\n\nx = torch.ones(2)\n");
  dir.write("requirements-dev.txt", "numpy>=1.0\n");               // no rule fires: no fact read
  dir.write("requirements.txt", "torch>=2.7\nonnxscript>=0.4\n");  // TM402 fires and reads a fact
  // Written well before the run: a file written in the run's own clock tick is never trusted.
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  std::vector<DiscoveredFile> files = discover({dir.path.string()}).files;
  REQUIRE(files.size() == 3);
  const Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  std::vector<const Linter*> linters(files.size(), &linter);
  auto run = [&] {
    std::string problem;
    std::optional<ResultCache> cache = ResultCache::open(engine::Catalog::builtin(), dir.path / "cache", std::nullopt, problem);
    REQUIRE(cache);
    std::map<std::string, bool> read;  // by file name: whether its text was read
    std::mutex mutex;
    run_session(linters, files, FixMode::Report, 1, &*cache, false, [&](const FileOutcome& outcome) {
      std::lock_guard lock(mutex);
      read[fs::path(outcome.source->path()).filename().string()] = !outcome.source->text().empty();
    });
    cache->save();
    return read;
  };
  std::map<std::string, bool> cold = run();
  CHECK(cold ==
        std::map<std::string, bool>{{"model.py", true}, {"requirements-dev.txt", true}, {"requirements.txt", true}});
  std::map<std::string, bool> warm = run();
  CHECK(warm ==
        std::map<std::string, bool>{{"model.py", false}, {"requirements-dev.txt", false}, {"requirements.txt", true}});
}
