// SPDX-License-Identifier: MIT
// TM330 (cxx-namespace-moved) with and without a compile database: the AST decides which `from`
// a call means, the token scan relies on the file's includes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../temp_dir.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
namespace fs = std::filesystem;
using testing::TempDir;
using testing::write;

namespace {

// The 2.10 header as the rule describes it: deprecated globals and the namespaced functions.
constexpr const char* kHeader = R"(#pragma once
#include <cstdint>
using StableIValue = uint64_t;
template <typename T>
[[deprecated("Use torch::stable::detail::from instead.")]] StableIValue from(T value) { return 0; }
template <typename T>
[[deprecated("Use torch::stable::detail::to instead.")]] T to(StableIValue value) { return T(); }
namespace torch::stable::detail {
template <typename T>
StableIValue from(T value) { return 0; }
template <typename T>
T to(StableIValue value) { return T(); }
}  // namespace torch::stable::detail
)";

// Reaches the header through a project header (token mode cannot tell), and calls a `from` of
// its own (token mode reports it, the AST does not).
constexpr const char* kViaProjectHeader = R"(#include "wrapper.h"
void boxed(StableIValue* stack) {
  stack[0] = from(to<int64_t>(stack[0]) + 1);
}
)";

constexpr const char* kOwnFrom = R"(#include <torch/csrc/stable/stableivalue_conversions.h>
static StableIValue from(double value) { return 1; }
void boxed(StableIValue* stack) {
  stack[0] = from(2.0);
  stack[1] = from(3);
}
)";

std::vector<std::string> findings(const std::filesystem::path& path, const std::string& text,
                                  const std::string& database_dir) {
  engine::Settings settings;
  settings.selection.select = {"TM330"};
  settings.target = engine::TorchVersion::parse("2.10");
  settings.compile_database_dir = database_dir;
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  SourceFile file(path.string(), text, Language::Cxx);
  std::vector<std::string> result;
  for (const Diagnostic& diagnostic : linter.lint(file)) {
    std::string where = std::to_string(file.location(diagnostic.range.start).line) + ":" +
                        std::string(file.slice(diagnostic.range));
    result.push_back(where);
  }
  return result;
}

}  // namespace

TEST_CASE("TM330: the compile database decides which `from` a call resolves to") {
  TempDir dir;
  fs::path project = dir.path / "project";
  write(project / "include" / "torch" / "csrc" / "stable" / "stableivalue_conversions.h", kHeader);
  write(project / "src" / "wrapper.h", "#include <torch/csrc/stable/stableivalue_conversions.h>\n");
  write(project / "src" / "via_project_header.cpp", kViaProjectHeader);
  write(project / "src" / "own_from.cpp", kOwnFrom);
  std::string json = "[";
  for (const char* name : {"via_project_header.cpp", "own_from.cpp"}) {
    if (json.size() > 1) json += ",";
    json += R"({"directory": ")" + (project / "src").string() + R"(", "command": "c++ -I)" +
            (project / "include").string() + " -std=c++17 -c " + name + R"(", "file": ")" + name + R"("})";
  }
  // Outside the project, so that a run without `-p` does not find it.
  write(dir.path / "out" / "compile_commands.json", json + "]");
  std::string database = (dir.path / "out").string();

  // Token mode: the project header hides the include; the file's own `from` looks like torch's.
  CHECK(findings(project / "src" / "via_project_header.cpp", kViaProjectHeader, "").empty());
  CHECK(findings(project / "src" / "own_from.cpp", kOwnFrom, "") == std::vector<std::string>{"4:from", "5:from"});

  // With the database: both calls through the project header are torch's; the file's own
  // non-template `from(double)` is not, the template picked for `from(3)` is.
  CHECK(findings(project / "src" / "via_project_header.cpp", kViaProjectHeader, database) ==
        std::vector<std::string>{"3:from", "3:to"});
  CHECK(findings(project / "src" / "own_from.cpp", kOwnFrom, database) == std::vector<std::string>{"5:from"});
}
