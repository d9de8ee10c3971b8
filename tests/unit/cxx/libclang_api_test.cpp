// SPDX-License-Identifier: MIT
// The run-time loader of libclang: what a bad candidate says, that a good one resolves every
// function, and which candidates TORCHMIGRATE_LIBCLANG leaves.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "torchmigrate/cxx/libclang_api.hpp"

using namespace torchmigrate;

namespace {

// Every function pointer of the table, by name, for checks over all of them.
std::vector<std::pair<std::string, bool>> resolved(const cxx::LibclangApi& api) {
  std::vector<std::pair<std::string, bool>> names;
#define TORCHMIGRATE_LIBCLANG_SEEN(name) names.emplace_back(#name, api.name != nullptr);
  TORCHMIGRATE_LIBCLANG_FUNCTIONS(TORCHMIGRATE_LIBCLANG_SEEN)
#undef TORCHMIGRATE_LIBCLANG_SEEN
  return names;
}

// The candidates of a build, as a user without TORCHMIGRATE_LIBCLANG gets them.
std::vector<std::string> default_candidates() {
  ::unsetenv("TORCHMIGRATE_LIBCLANG");
  return cxx::libclang_candidates();
}

}  // namespace

TEST_CASE("a missing file is a clear error and leaves every function unset") {
  cxx::LibclangLoad load = cxx::load_libclang({"/nonexistent/libclang.so.1"});
  CHECK_FALSE(load.loaded());
  CHECK(load.path.empty());
  CHECK_THAT(load.error, Catch::Contains("/nonexistent/libclang.so.1") && Catch::Contains("No such file"));
  for (const auto& [name, set] : resolved(load.api)) CHECK_FALSE(set);
}

TEST_CASE("a library that is not libclang names the first function it lacks") {
  cxx::LibclangLoad load = cxx::load_libclang({"libm.so.6"});
  CHECK_FALSE(load.loaded());
  CHECK(load.error == "libm.so.6: has no clang_CompilationDatabase_dispose (not a libclang, or too old)");
  for (const auto& [name, set] : resolved(load.api)) CHECK_FALSE(set);
}

TEST_CASE("the error is the first candidate's and lists the others tried") {
  cxx::LibclangLoad load = cxx::load_libclang({"/nonexistent/a.so", "/nonexistent/b.so", "libm.so.6"});
  CHECK_FALSE(load.loaded());
  CHECK_THAT(load.error, Catch::StartsWith("/nonexistent/a.so: ") &&
                             Catch::EndsWith("; also tried /nonexistent/b.so, libm.so.6"));
  CHECK(cxx::load_libclang({}).error == "no library to try");
}

TEST_CASE("the libclang of the build resolves every function, after candidates that fail") {
  std::vector<std::string> candidates = default_candidates();
  REQUIRE_FALSE(candidates.empty());
  candidates.insert(candidates.begin(), {"/nonexistent/libclang.so.1", "libm.so.6"});
  cxx::LibclangLoad load = cxx::load_libclang(candidates);
  REQUIRE(load.loaded());
  CHECK(load.error.empty());
  CHECK(load.path == candidates[2]);
  for (const auto& [name, set] : resolved(load.api)) {
    INFO(name);
    CHECK(set);
  }
  // The pointers are libclang's own: an index can be made and freed.
  CXIndex index = load.api.clang_createIndex(0, 0);
  CHECK(index != nullptr);
  load.api.clang_disposeIndex(index);
}

TEST_CASE("TORCHMIGRATE_LIBCLANG is the only candidate when set") {
  std::vector<std::string> defaults = default_candidates();
  CHECK(defaults.size() >= 2);
  CHECK(std::find(defaults.begin(), defaults.end(), "libclang.so.1") != defaults.end());
  ::setenv("TORCHMIGRATE_LIBCLANG", "/opt/llvm/lib/libclang.so", 1);
  CHECK(cxx::libclang_candidates() == std::vector<std::string>{"/opt/llvm/lib/libclang.so"});
  // Empty is unset: a shell's `TORCHMIGRATE_LIBCLANG= torchmigrate` keeps the defaults.
  ::setenv("TORCHMIGRATE_LIBCLANG", "", 1);
  CHECK(cxx::libclang_candidates() == defaults);
  ::unsetenv("TORCHMIGRATE_LIBCLANG");
}
