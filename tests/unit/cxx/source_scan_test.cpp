// SPDX-License-Identifier: MIT
// The libclang front: tokens without headers, disabled blocks, directives and macro
// arguments, compile database lookup, and equal TM151 findings with and without a database.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/cxx/compile_database.hpp"
#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

#include "../temp_dir.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;
using testing::TempDir;
using testing::write;
using cxx::Directive;
using cxx::SourceScan;
using cxx::TokenKind;

namespace {

cxx::ScanOptions no_database() {
  cxx::ScanOptions options;
  options.use_compile_database = false;
  return options;
}

// Indices of the identifier tokens spelled `name`.
std::vector<size_t> identifiers(const SourceScan& scan, std::string_view name) {
  std::vector<size_t> found;
  for (size_t i = 0; i < scan.tokens().size(); ++i) {
    if (scan.tokens()[i].kind == TokenKind::Identifier && scan.tokens()[i].spelling == name) found.push_back(i);
  }
  return found;
}

const char* const kSource =
    "#include <torch/extension.h>\n"
    "#include \"not/on/this/machine.h\"\n"
    "#include <cuda_runtime.h>\n"
    "// kDLGPU in a comment\n"
    "const char* s = \"kDLGPU\";\n"
    "#define CHECK(x) do { if (!(x)) throw 1; } while (0)\n"
    "#define DEFAULT_DEVICE kDLGPU\n"
    "#if 0\n"
    "int dead = kDLGPU;\n"
    "#elif defined(USE_ROCM)\n"
    "int rocm = kDLGPU;\n"
    "#else\n"
    "int live = kDLGPU;\n"
    "#endif\n"
    "void f(int t) { CHECK(t == kDLGPU); }\n"
    "int kDLGPUX = 0;\n";

}  // namespace

TEST_CASE("a file is tokenised without its headers") {
  SourceFile file("/nonexistent/dir/sample.cpp", kSource, Language::Cxx);
  SourceScan scan = SourceScan::scan(file, no_database());
  REQUIRE(!scan.tokens().empty());
  CHECK_FALSE(scan.has_compile_database());
  // Every token after the missing includes is still there, with exact byte ranges.
  for (const cxx::Token& token : scan.tokens()) CHECK(file.slice(token.range) == token.spelling);
  CHECK(identifiers(scan, "kDLGPU").size() == 5);
  CHECK(identifiers(scan, "kDLGPUX").size() == 1);
  size_t comments = std::count_if(scan.tokens().begin(), scan.tokens().end(),
                                  [](const cxx::Token& t) { return t.kind == TokenKind::Comment; });
  CHECK(comments == 1);
  auto string = std::find_if(scan.tokens().begin(), scan.tokens().end(),
                             [](const cxx::Token& t) { return t.spelling == "\"kDLGPU\""; });
  REQUIRE(string != scan.tokens().end());
  CHECK(string->kind == TokenKind::Literal);

  REQUIRE(scan.includes().size() == 3);
  CHECK(scan.includes()[0].header == "torch/extension.h");
  CHECK(scan.includes()[0].angled);
  CHECK(scan.includes()[1].header == "not/on/this/machine.h");
  CHECK_FALSE(scan.includes()[1].angled);
  CHECK(file.slice(scan.includes()[2].range) == "#include <cuda_runtime.h>");
}

TEST_CASE("only blocks no configuration compiles are disabled") {
  SourceFile file("sample.cpp", kSource, Language::Cxx);
  SourceScan scan = SourceScan::scan(file, no_database());
  std::vector<size_t> uses = identifiers(scan, "kDLGPU");
  REQUIRE(uses.size() == 5);
  const auto& tokens = scan.tokens();
  auto skipped = [&](size_t i) {
    return std::any_of(scan.skipped_ranges().begin(), scan.skipped_ranges().end(),
                       [&](const TextRange& r) { return r.contains(tokens[i].range.start); });
  };
  // libclang skipped the #if 0 block, and it is dead in every configuration.
  CHECK(skipped(uses[1]));
  CHECK(tokens[uses[1]].disabled);
  // A branch that depends on a macro is never disabled, whichever branch this parse took.
  CHECK_FALSE(tokens[uses[2]].disabled);
  CHECK_FALSE(tokens[uses[3]].disabled);
  CHECK_FALSE(tokens[uses[4]].disabled);
  CHECK_FALSE(tokens[uses[0]].disabled);
}

TEST_CASE("directives, macro definitions and macro arguments") {
  SourceFile file("sample.cpp", kSource, Language::Cxx);
  SourceScan scan = SourceScan::scan(file, no_database());
  std::vector<size_t> uses = identifiers(scan, "kDLGPU");
  const auto& tokens = scan.tokens();
  CHECK(tokens[uses[0]].directive == Directive::Define);
  CHECK(tokens[uses[0]].directive_position == 3);
  CHECK(tokens[uses[3]].directive == Directive::None);
  CHECK(scan.defines_macro("CHECK"));
  CHECK(scan.defines_macro("DEFAULT_DEVICE"));
  CHECK_FALSE(scan.defines_macro("kDLGPU"));
  // `CHECK(t == kDLGPU)`: an argument of the file's own function-like macro.
  CHECK(scan.in_macro_arguments(uses[4]));
  CHECK_FALSE(scan.in_macro_arguments(uses[3]));
  // Undeclared without headers: nothing resolves it.
  CHECK_FALSE(scan.reference(uses[3]).resolved);
}

TEST_CASE("a declaration in the file resolves to the file") {
  SourceFile file("own.cpp", "enum class Mine { kDLGPU };\nint f() { return int(Mine::kDLGPU); }\n", Language::Cxx);
  SourceScan scan = SourceScan::scan(file, no_database());
  for (size_t i : identifiers(scan, "kDLGPU")) {
    cxx::NameReference reference = scan.reference(i);
    CHECK(reference.resolved);
    CHECK(reference.in_main_file);
  }
}

TEST_CASE("CUDA files parse host-only without a CUDA installation") {
  SourceFile file("kernel.cu",
                  "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = kDLGPU; }\n"
                  "void go(float* x) { k<<<1, 32>>>(x); }\n",
                  Language::Cxx);
  SourceScan scan = SourceScan::scan(file, no_database());
  CHECK(identifiers(scan, "kDLGPU").size() == 1);
  CHECK(identifiers(scan, "go").size() == 1);
}

TEST_CASE("compile database lookup and arguments") {
  TempDir dir;
  write(dir.path / "build" / "compile_commands.json", "[]");
  write(dir.path / "src" / "deep" / "a.cpp", "int a;\n");
  CHECK(cxx::find_compile_database(dir.path / "src" / "deep" / "a.cpp") == dir.path / "build");
  CHECK(cxx::find_compile_database(dir.path / "src" / "a.cpp", dir.path / "src") == std::nullopt);
  CHECK(cxx::find_compile_database(dir.path / "src" / "a.cpp", dir.path / "build") == dir.path / "build");

  std::vector<std::string> arguments = cxx::parsing_arguments(
      {"/usr/bin/c++", "-Iinclude", "-isystem", "/opt/torch/include", "-DUSE_CUDA=1", "-O2", "-std=c++17", "-c",
       "src/a.cpp", "-o", "a.o", "-include", "pre.h", "-Wall"},
      "/home/dev/project");
  std::vector<std::string> expected = {"-I", "/home/dev/project/include", "-isystem", "/opt/torch/include",
                                       "-D", "USE_CUDA=1", "-std=c++17", "-include", "/home/dev/project/pre.h"};
  CHECK(arguments == expected);
}

TEST_CASE("TM151 findings are the same with and without a compile database when headers are absent") {
  TempDir dir;
  fs::path source = dir.path / "project" / "bridge.cpp";
  write(source, kSource);
  fs::path database = dir.path / "out";
  std::string json = R"([{"directory": ")" + (dir.path / "project").string() +
                     R"(", "command": "c++ -I)" + (dir.path / "project" / "missing_include").string() +
                     R"( -DUSE_ROCM=1 -std=c++17 -c bridge.cpp -o bridge.o", "file": "bridge.cpp"}])";
  write(database / "compile_commands.json", json);

  SourceFile file(source.string(), kSource, Language::Cxx);
  cxx::ScanOptions with;
  with.compile_database_dir = database;
  REQUIRE(SourceScan::scan(file, with).has_compile_database());
  CHECK_FALSE(SourceScan::scan(file).has_compile_database());  // nothing found upwards

  auto findings = [&](const std::string& database_dir) {
    engine::Settings settings;
    settings.selection.select = {"TM151"};
    settings.compile_database_dir = database_dir;
    engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
    std::vector<std::tuple<uint32_t, uint32_t, std::string>> result;
    for (const Diagnostic& diagnostic : linter.lint(file)) {
      result.emplace_back(diagnostic.range.start, diagnostic.range.end, diagnostic.message);
    }
    return result;
  };
  auto without = findings("");
  auto with_database = findings(database.string());
  CHECK(without.size() == 4);  // macro body, the USE_ROCM and #else branches, the CHECK argument
  CHECK(with_database == without);
}
