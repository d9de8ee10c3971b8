// SPDX-License-Identifier: MIT
// Projects: where a file's project starts, its own torch range, facts gathered from its own
// files only (never a nested project's), and one Workspace giving each file its project's
// settings whatever else is asked first.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <tuple>

#include "temp_project.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/project.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"

using namespace torchmigrate::engine;
using torchmigrate::FixPolicy;
namespace fs = std::filesystem;

TEST_CASE("A project starts at the nearest directory with pins or a configuration, never above the repository") {
  TempProject tree;
  tree.write("a/requirements.txt", "torch>=2.8\n");
  tree.write("a/src/m.py", "");
  tree.write("b/torchmigrate.toml", "");
  tree.write("b/x/y.py", "");
  tree.write("c/z.py", "");
  fs::path root = fs::canonical(tree.root());
  CHECK(project_root_of(root / "a" / "src" / "m.py") == root / "a");
  CHECK(project_root_of(root / "a") == root / "a");
  CHECK(project_root_of(root / "b" / "x" / "y.py") == root / "b");
  // No pins below the repository root: the repository is the project.
  CHECK(project_root_of(root / "c" / "z.py") == root);
}

TEST_CASE("A folder is a project only with a torch pin, a package definition or a configuration") {
  TempProject tree;
  tree.write("requirements.txt", "torch>=2.4\n");
  tree.write("tools/requirements.txt", "numpy>=1.26\n");  // no torch: not a project
  tree.write("tools/run.py", "");
  tree.write("src/lightning/trainer/setup.py", "def _init_trainer(trainer):\n    return trainer\n");  // a module
  tree.write("src/lightning/trainer/loop.py", "");
  tree.write("pkg/setup.py", "from setuptools import setup\nsetup(name='pkg')\n");
  tree.write("pkg/pkg/m.py", "");
  tree.write("poetry/pyproject.toml", "[tool.poetry]\nname = \"p\"\n");
  tree.write("lint/pyproject.toml", "[tool.black]\nline-length = 100\n");  // no package
  tree.write("lint/x.py", "");
  fs::path root = fs::canonical(tree.root());
  CHECK(project_root_of(root / "tools" / "run.py") == root);
  CHECK(project_root_of(root / "src" / "lightning" / "trainer" / "loop.py") == root);
  CHECK(project_root_of(root / "pkg" / "pkg" / "m.py") == root / "pkg");
  CHECK(project_root_of(root / "poetry") == root / "poetry");
  CHECK(project_root_of(root / "lint" / "x.py") == root);
}

TEST_CASE("A project without torch pins inherits the range of the project around it") {
  TempProject tree;
  tree.write("requirements.txt", "torch>=2.1,<2.9\n");
  tree.write("pkg/setup.py", "from setuptools import setup\nsetup(name='pkg')\n");
  tree.write("pkg/pkg/m.py", "");
  tree.write("pinned/pyproject.toml", "[project]\ndependencies = [\"torch>=2.6\"]\n");
  tree.write("pinned/m.py", "");
  Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  fs::path root = fs::canonical(tree.root());
  FileContext inner = workspace.context_for(root / "pkg" / "pkg" / "m.py");
  CHECK(inner.project->root() == root / "pkg");
  CHECK(inner.range->span() == "2.1-2.8");
  CHECK(inner.range->inherited_from == root.string());
  CHECK(inner.range->describe().ends_with("requirements.txt:1, inherited)"));
  CHECK(inner.linter->settings().max_torch == TorchVersion{2, 8});
  FileContext own = workspace.context_for(root / "pinned" / "m.py");
  CHECK(own.range->span() == ">= 2.6");
  CHECK(own.range->inherited_from.empty());
}

TEST_CASE("Outside any repository the run's common directory is the one project") {
  torchmigrate::testing::TempDir dir;  // no .git anywhere inside
  dir.write("plain/a/one.py", "");
  dir.write("plain/b/c/two.py", "");
  dir.write("plain/requirements-docs.txt", "sphinx\n");
  fs::path plain = fs::canonical(dir.path / "plain");
  Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  workspace.set_run_paths({plain.string()});
  CHECK(workspace.project_of(plain / "a" / "one.py")->root() == plain);
  CHECK(workspace.project_of(plain / "b" / "c" / "two.py")->root() == plain);
}

TEST_CASE("The target release: default, configured, below the project's minimum") {
  TempProject tree;
  tree.write("old/requirements.txt", "torch>=2.5\n");
  tree.write("old/m.py", "");
  tree.write("new/requirements.txt", "torch>=2.9\n");
  tree.write("new/m.py", "");
  fs::path root = fs::canonical(tree.root());
  Workspace defaults(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  CHECK(defaults.linter_for(root / "old" / "m.py").settings().target == TorchVersion{2, 8});
  // A project already past the default target is checked at its oldest supported torch.
  CHECK(defaults.linter_for(root / "new" / "m.py").settings().target == TorchVersion{2, 9});

  CliOverrides overrides;
  overrides.target_version = "2.8";
  Workspace explicit_target(Catalog::builtin(), torchmigrate::checks::builtin_registry(), overrides, std::nullopt,
                            false);
  CHECK(explicit_target.linter_for(root / "old" / "m.py").settings().target == TorchVersion{2, 8});
  try {
    (void)explicit_target.linter_for(root / "new" / "m.py");
    FAIL("a target below the project's minimum must be refused");
  } catch (const ConfigError& error) {
    CHECK(std::string(error.what())
              .find("target-version 2.8 (from --target-version) is older than the oldest torch "
                    "the project supports, 2.9") != std::string::npos);
  }
  tree.write("old/torchmigrate.toml", "target-version = \"latest\"\n");
  Workspace configured(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  CHECK(configured.linter_for(root / "old" / "m.py").settings().target == Catalog::builtin().targets().back());

  // `latest` for a project past the newest catalog: checked at its oldest torch, not refused.
  tree.write("future/requirements.txt", "torch>=2.13\n");
  tree.write("future/m.py", "");
  overrides.target_version = "latest";
  Workspace latest(Catalog::builtin(), torchmigrate::checks::builtin_registry(), overrides, std::nullopt, false);
  CHECK(latest.linter_for(root / "future" / "m.py").settings().target == TorchVersion{2, 13});
  CHECK(latest.linter_for(root / "old" / "m.py").settings().target == Catalog::builtin().targets().back());
}

namespace {

constexpr const char* kDynamoExport = "import torch\ntorch.onnx.export(m, (x,), \"m.onnx\", dynamo=True)\n";

// Project `a` (torch >= 2.8, CMake finding torch) with project `a/nested` (torch >= 2.5, a
// dynamo export) inside it.
void write_nested_projects(const TempProject& tree) {
  tree.write("a/requirements.txt", "torch>=2.8\n");
  tree.write("a/CMakeLists.txt", "find_package(Torch REQUIRED)\n");
  tree.write("a/nested/pyproject.toml", "[project]\nname = \"n\"\ndependencies = [\"torch>=2.5\"]\n");
  tree.write("a/nested/export.py", kDynamoExport);
}

// Projects `real` (torch >= 2.6) and `other` (torch >= 2.8) side by side, one Python file in
// each (`file_dir` under `real`), for the link tests; returns the tree's canonical root.
fs::path write_sibling_projects(const TempProject& tree, const std::string& file_dir) {
  tree.write("real/requirements.txt", "torch>=2.6\n");
  tree.write(file_dir + "/m.py", "");
  tree.write("other/requirements.txt", "torch>=2.8\n");
  tree.write("other/o.py", "");
  return fs::canonical(tree.root());
}

}  // namespace

TEST_CASE("Each project has its own torch range and facts from its own files only") {
  TempProject tree;
  write_nested_projects(tree);
  Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  fs::path root = fs::canonical(tree.root());

  std::shared_ptr<const Project> outer = workspace.project_of(root / "a" / "CMakeLists.txt");
  std::shared_ptr<const Project> nested = workspace.project_of(root / "a" / "nested" / "export.py");
  CHECK(outer->torch_range().min_torch == TorchVersion{2, 8});
  CHECK(nested->torch_range().min_torch == TorchVersion{2, 5});
  CHECK(outer->facts().get(facts::cmake_finds_torch));
  CHECK_FALSE(outer->facts().get(facts::onnx_dynamo_export));  // that call belongs to the nested project
  CHECK(nested->facts().get(facts::onnx_dynamo_export));
  CHECK_FALSE(nested->facts().get(facts::cmake_finds_torch));
}

TEST_CASE("A project takes its files from the run's walk, with the same facts as its own walk") {
  TempProject tree;
  write_nested_projects(tree);
  tree.write("a/ignored/export.py", kDynamoExport);
  tree.write("a/torchmigrate.toml", "extend-exclude = [\"ignored\"]\n");
  fs::path root = fs::canonical(tree.root());
  auto facts_of = [&](bool adopt) {
    Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
    std::vector<std::string> paths = {root.string()};
    DiscoveryFilter filter = workspace.filter(false);
    Discovery walk = discover(paths, {}, &filter);  // outlives its adoption
    if (adopt) workspace.adopt_walk(paths, walk.files);
    std::shared_ptr<const Project> outer = workspace.project_of(root / "a" / "CMakeLists.txt");
    std::shared_ptr<const Project> nested = workspace.project_of(root / "a" / "nested" / "export.py");
    return std::tuple{outer->facts().get(facts::cmake_finds_torch), outer->facts().get(facts::onnx_dynamo_export),
                      nested->facts().get(facts::cmake_finds_torch), nested->facts().get(facts::onnx_dynamo_export)};
  };
  CHECK(facts_of(true) == facts_of(false));
  CHECK(facts_of(true) == std::tuple{true, false, false, true});
}

TEST_CASE("Facts asked while the run's walk goes on wait for its end, and none come of a failed walk") {
  TempProject tree;
  write_nested_projects(tree);
  fs::path root = fs::canonical(tree.root());
  enum class End { Adopted, NamedFile, Failed };
  for (End end : {End::Adopted, End::NamedFile, End::Failed}) {
    Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
    // A run over the tree, or over one file (its walk is not adopted: a project walks its own).
    std::vector<std::string> paths = {end == End::NamedFile ? (root / "a" / "nested" / "export.py").string()
                                                            : root.string()};
    workspace.begin_walk();
    std::shared_ptr<const Project> nested = workspace.project_of(root / "a" / "nested" / "export.py");
    std::atomic<bool> answered{false};
    bool dynamo = false;
    std::thread worker([&] {
      dynamo = nested->facts().get(facts::onnx_dynamo_export);
      answered = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(answered);  // a list taken before the walk ended could miss any file
    DiscoveryFilter filter = workspace.filter(false);
    Discovery walk = discover(paths, {}, &filter);  // outlives its adoption
    if (end == End::Failed) {
      workspace.forget_walk();
    } else {
      workspace.adopt_walk(paths, walk.files);
    }
    worker.join();
    CHECK(answered);
    // A failed walk ends its run with an error: the facts asked meanwhile are not gathered.
    CHECK(dynamo == (end != End::Failed));
  }
}

TEST_CASE("A file's settings do not depend on which files were asked about before") {
  TempProject tree;
  tree.write("new/requirements.txt", "torch>=2.8\n");
  tree.write("new/a.py", "");
  tree.write("old/requirements.txt", "torch>=2.6\n");
  tree.write("old/torchmigrate.toml", "policy = \"adopt-new\"\n");
  tree.write("old/b.py", "");
  fs::path root = fs::canonical(tree.root());
  auto settings_of = [&](const std::vector<std::string>& order) {
    Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
    std::map<std::string, std::pair<TorchVersion, FixPolicy>> seen;
    for (const std::string& name : order) {
      const Settings& settings = workspace.linter_for(root / name).settings();
      seen[name] = {settings.min_torch, settings.policy_for("TM201")};
    }
    return seen;
  };
  auto forward = settings_of({"new/a.py", "old/b.py"});
  CHECK(forward == settings_of({"old/b.py", "new/a.py"}));
  CHECK(forward["new/a.py"] == std::pair{TorchVersion{2, 8}, FixPolicy::KeepOld});
  CHECK(forward["old/b.py"] == std::pair{TorchVersion{2, 6}, FixPolicy::AdoptNew});
}

TEST_CASE("The per-directory project look-up resolves links like the uncached one") {
  TempProject tree;
  fs::path root = write_sibling_projects(tree, "real/pkg");
  fs::create_directory_symlink(root / "real", root / "alias");                         // a directory link
  fs::create_symlink(root / "other" / "o.py", root / "real" / "pkg" / "to_other.py");  // a file link out
  fs::create_symlink(root / "missing.py", root / "real" / "pkg" / "broken.py");
  std::vector<fs::path> paths = {
      root / "real/pkg/m.py",         root / "alias/pkg/m.py",        root / "alias/pkg",
      root / "real/pkg/to_other.py",  root / "alias/pkg/to_other.py", root / "real/pkg/broken.py",
      root / "alias/pkg/../pkg/m.py", root / "real/pkg/not_yet.py",   root / "alias/pkg/."};
  ProjectIndex index(nullptr);
  // Twice, so the second round is answered from the per-directory memo.
  for (int round = 0; round < 2; ++round) {
    for (const fs::path& path : paths) {
      INFO(path.string());
      CHECK(index.root_of(path) == project_root_of(path));
    }
  }
  CHECK(index.root_of(root / "alias/pkg/m.py") == root / "real");
  CHECK(index.root_of(root / "real/pkg/to_other.py") == root / "other");
}

TEST_CASE("A walk through a linked root tells the project look-up each directory's real path") {
  TempProject tree;
  fs::path root = write_sibling_projects(tree, "real/pkg");
  fs::create_directory_symlink(root / "real", root / "alias");
  DirectoryListings listings;
  DiscoveryFilter filter;
  filter.listings = &listings;
  Discovery walked = discover({(root / "alias").string()}, {}, &filter);
  REQUIRE_FALSE(walked.files.empty());
  CHECK(listings.real_path((root / "alias" / "pkg").string()) == (root / "real" / "pkg").string());
  CHECK(listings.real_path((root / "alias").string()) == (root / "real").string());
  ProjectIndex index(nullptr, {}, &listings);
  for (const DiscoveredFile& file : walked.files) {
    INFO(file.path);
    CHECK(index.root_of(file.path) == project_root_of(file.path));
    CHECK(index.root_of(file.path) == root / "real");
  }
}

TEST_CASE("Only a regular file the walk reached is plain; a link named on the command line is looked at") {
  TempProject tree;
  fs::path root = write_sibling_projects(tree, "real");
  fs::create_symlink(root / "other" / "o.py", root / "real" / "to_other.py");
  Discovery walked = discover({(root / "real").string()}, {}, nullptr);
  REQUIRE(walked.files.size() == 2);  // m.py and requirements.txt; the link leads out of the tree
  for (const DiscoveredFile& file : walked.files) CHECK(file.plain);
  Discovery named = discover({(root / "real" / "to_other.py").string()}, {}, nullptr);
  REQUIRE(named.files.size() == 1);
  CHECK_FALSE(named.files[0].plain);
  // The link's project is its target's, which a plain file in its directory would not get.
  Workspace workspace(Catalog::builtin(), torchmigrate::checks::builtin_registry(), {}, std::nullopt, false);
  CHECK(workspace.context_for(walked.files[0].path, true).project->root() == root / "real");
  CHECK(workspace.context_for(named.files[0].path, named.files[0].plain).project->root() == root / "other");
}
