// SPDX-License-Identifier: MIT
// Project facts kept between runs: recalled while every input of the gathering has its stamp and
// the project lists the same files, gathered again otherwise; kept in the result cache's file.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

// A memo in memory that counts what it is handed.
class CountingMemo final : public FactMemo {
 public:
  [[nodiscard]] std::optional<StoredFacts> recall(const std::string& root) const override {
    std::lock_guard lock(mutex_);
    auto it = kept_.find(root);
    return it == kept_.end() ? std::nullopt : std::optional<StoredFacts>(it->second);
  }
  void remember(const std::string& root, const StoredFacts& facts, int64_t) const override {
    std::lock_guard lock(mutex_);
    kept_[root] = facts;
    ++remembered;
  }
  mutable int remembered = 0;

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, StoredFacts> kept_;
};

std::shared_ptr<const Project> project_at(const fs::path& root) {
  Project::FileLister lister = [root] { return discover({root.string()}).files; };
  return std::make_shared<Project>(root, TorchRange{}, lister, buildfiles::ExtraExtensions{});
}

}  // namespace

TEST_CASE("Project facts are recalled while their inputs are unchanged and gathered again after a change") {
  torchmigrate::testing::TempDir dir;
  dir.write("train.py", "import os\nos.environ.get('MY_SEED')\n");
  dir.write("requirements.txt", "torch>=2.7\n");
  CountingMemo memo;

  const nlohmann::json first = project_at(dir.path)->fact_keys(&memo);
  CHECK(memo.remembered == 1);
  CHECK(first["environment_reads"] == nlohmann::json::array({"MY_SEED"}));

  // A new Project (a new run): the same keys, and nothing gathered, so nothing remembered.
  CHECK(project_at(dir.path)->fact_keys(&memo) == first);
  CHECK(memo.remembered == 1);

  SECTION("a changed file") {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a new modification time
    dir.write("train.py", "import os\nos.environ.get('OTHER_SEED')\n");
    CHECK(project_at(dir.path)->fact_keys(&memo)["environment_reads"] == nlohmann::json::array({"OTHER_SEED"}));
    CHECK(memo.remembered == 2);
  }
  SECTION("a new file") {
    dir.write("eval.py", "import os\nos.getenv('EVAL_SEED')\n");
    CHECK(project_at(dir.path)->fact_keys(&memo)["environment_reads"] ==
          nlohmann::json::array({"EVAL_SEED", "MY_SEED"}));
    CHECK(memo.remembered == 2);
  }
  SECTION("a path read beside the listed files") {
    dir.write(".python-version", "3.8\n");
    CHECK(project_at(dir.path)->fact_keys(&memo)["python_versions"][0] == "3.8");
    CHECK(memo.remembered == 2);
  }
}

TEST_CASE("The result cache keeps project facts in its file, and never facts gathered from files written meanwhile") {
  torchmigrate::testing::TempDir dir;
  StoredFacts facts{{"/p/.python-version"}, "signature", R"({"declares_onnxscript":true})"};
  auto open = [&] {
    std::string problem;
    std::optional<ResultCache> cache = ResultCache::open(Catalog::builtin(), dir.path / "cache", std::nullopt, problem);
    REQUIRE(cache);
    return *cache;
  };
  auto now_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  {
    ResultCache cache = open();
    CHECK_FALSE(cache.fact_memo().recall("/p"));
    cache.fact_memo().remember("/p", facts, now_ns - 60'000'000'000);
    cache.fact_memo().remember("/q", facts, now_ns);  // an input written during the run
    cache.save();
  }
  ResultCache cache = open();
  std::optional<StoredFacts> recalled = cache.fact_memo().recall("/p");
  REQUIRE(recalled);
  CHECK(recalled->extra_paths == facts.extra_paths);
  CHECK(recalled->signature == facts.signature);
  CHECK(recalled->keys == facts.keys);
  CHECK_FALSE(cache.fact_memo().recall("/q"));
}
