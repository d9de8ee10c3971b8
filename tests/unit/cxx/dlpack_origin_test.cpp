// SPDX-License-Identifier: MIT
// Which DLPack a file compiles against (torch's `ATen/dlpack.h` or the project's own), DLTensor
// member accesses found by tokens, and TM151 findings following that decision.
#include <catch2/catch.hpp>

#include <filesystem>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/cxx/dlpack_origin.hpp"
#include "torchmigrate/cxx/member_access.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

#include "../temp_dir.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;
using testing::TempDir;
using testing::write;
using cxx::DlpackOrigin;
using cxx::SourceScan;

namespace {

// A scan with the file it views (token spellings point into the file's text).
struct Scanned {
  SourceFile file;
  SourceScan scan;
  explicit Scanned(const std::string& text)
      : file("/nonexistent/origin.cpp", text, Language::Cxx), scan(SourceScan::scan(file, {.compile_database_dir = {}, .use_compile_database = false})) {}
};

std::vector<Diagnostic> lint(const SourceFile& file, const engine::OwnDlpack& project = {},
                             const std::string& database_dir = "") {
  engine::Settings settings;
  settings.selection.select = {"TM151"};
  settings.project = engine::Project::with_facts(engine::ProjectFacts().set(engine::facts::own_dlpack, project));
  settings.compile_database_dir = database_dir;
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(file);
}

const std::string kUses =
    "bool on_gpu(const DLTensor* t) { return t->ctx.device_type == kDLGPU; }\n"
    "DLContext of(const DLTensor& t) { return t.ctx; }\n";

}  // namespace

TEST_CASE("header paths of torch's DLPack and of others") {
  CHECK(cxx::is_torch_dlpack_header("ATen/dlpack.h"));
  CHECK(cxx::is_torch_dlpack_header("/usr/lib/python3/site-packages/torch/include/ATen/dlpack.h"));
  CHECK(cxx::is_torch_dlpack_header("ATen/DLConvertor.h"));
  CHECK_FALSE(cxx::is_torch_dlpack_header("dlpack/dlpack.h"));
  CHECK_FALSE(cxx::is_torch_dlpack_header("MyATen/dlpack.h"));
  CHECK(cxx::is_dlpack_header("dlpack.h"));
  CHECK(cxx::is_dlpack_header("third_party/dlpack/include/dlpack/dlpack.h"));
  CHECK_FALSE(cxx::is_dlpack_header("my_dlpack.h"));
}

TEST_CASE("without a compile database the includes decide, then the project") {
  CHECK(cxx::dlpack_origin(Scanned("#include <ATen/dlpack.h>\n").scan, true, "x").origin == DlpackOrigin::Torch);
  CHECK(cxx::dlpack_origin(Scanned("#include <ATen/DLConvertor.h>\n").scan, false, "").origin == DlpackOrigin::Torch);
  cxx::DlpackDecision own = cxx::dlpack_origin(Scanned("#include <dlpack/dlpack.h>\n").scan, false, "");
  CHECK(own.origin == DlpackOrigin::Own);
  CHECK(own.reason.find("dlpack/dlpack.h") != std::string::npos);
  CHECK(cxx::dlpack_origin(Scanned("#include \"dlpack.h\"\n").scan, false, "").origin == DlpackOrigin::Own);
  // No DLPack include: the names arrive through another header.
  std::string indirect = "#include <torch/extension.h>\n#include \"bridge.h\"\n";
  CHECK(cxx::dlpack_origin(Scanned(indirect).scan, false, "").origin == DlpackOrigin::Torch);
  cxx::DlpackDecision shipped = cxx::dlpack_origin(Scanned(indirect).scan, true, ".gitmodules");
  CHECK(shipped.origin == DlpackOrigin::Own);
  CHECK(shipped.reason.find(".gitmodules") != std::string::npos);
  // An include in `#if 0` is no include.
  CHECK(cxx::dlpack_origin(Scanned("#if 0\n#include <dlpack/dlpack.h>\n#endif\n").scan, false, "").origin ==
        DlpackOrigin::Torch);
}

TEST_CASE("DLTensor member accesses are known through the file's declarations") {
  Scanned scanned(
      "int a(const DLTensor* t, Other* o, DLManagedTensor* m) {\n"
      "  auto& held = m->dl_tensor;\n"
      "  return t->ctx.device_id + o->ctx.device_id + m->dl_tensor.ctx.device_id + held.ctx.device_id +\n"
      "         get()->ctx.device_type + o->ctx;\n"
      "}\n"
      "// t->ctx in a comment\n");
  const SourceScan& scan = scanned.scan;
  std::vector<cxx::MemberAccess> accesses = cxx::member_accesses(scan, "ctx", "DLTensor", "dl_tensor");
  REQUIRE(accesses.size() == 6);
  std::vector<bool> known;
  for (const cxx::MemberAccess& access : accesses) known.push_back(access.of_struct);
  CHECK(known == std::vector<bool>{true, false, true, true, false, false});
  std::vector<std::string> fields = {"device_type", "device_id"};
  CHECK(cxx::followed_by_field(scan, accesses[1].member, fields));
  CHECK(cxx::followed_by_field(scan, accesses[4].member, fields));
  CHECK_FALSE(cxx::followed_by_field(scan, accesses[5].member, fields));
}

TEST_CASE("TM151 follows the DLPack the file uses") {
  SourceFile torch("/nonexistent/a.cpp", "#include <ATen/dlpack.h>\n" + kUses, Language::Cxx);
  std::vector<Diagnostic> found = lint(torch);
  REQUIRE(found.size() == 4);  // kDLGPU, DLContext and two `ctx`
  for (const Diagnostic& diagnostic : found) {
    REQUIRE(diagnostic.fixes.size() == 1);
    CHECK(diagnostic.fixes[0].edits.size() == 4);  // one fix renames the whole file
  }
  CHECK(found[0].message.find("it includes `ATen/dlpack.h`") != std::string::npos);

  SourceFile own("/nonexistent/b.cpp", "#include <dlpack/dlpack.h>\n" + kUses, Language::Cxx);
  CHECK(lint(own).empty());

  SourceFile indirect("/nonexistent/c.cpp", "#include \"bridge.h\"\n" + kUses, Language::Cxx);
  CHECK(lint(indirect).size() == 4);
  engine::OwnDlpack shipped{true, true, "third_party/dlpack/include/dlpack/dlpack.h"};
  CHECK(lint(indirect, shipped).empty());
}

TEST_CASE("with a compile database the header the build opens decides") {
  TempDir dir;
  fs::path project = dir.path / "project";
  // The project's own DLPack, before 0.5, reached through a project header.
  write(project / "third_party" / "dlpack" / "include" / "dlpack" / "dlpack.h",
        "#pragma once\ntypedef enum { kDLCPU = 1, kDLGPU = 2, kDLCPUPinned = 3 } DLDeviceType;\n"
        "typedef struct { DLDeviceType device_type; int device_id; } DLContext;\n"
        "typedef struct { void* data; DLContext ctx; } DLTensor;\n");
  write(project / "include" / "bridge.h", "#pragma once\n#include <dlpack/dlpack.h>\n");
  // A stand-in for torch's header: DLPack 1.0 names only.
  write(project / "torch_include" / "ATen" / "dlpack.h",
        "#pragma once\ntypedef enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 } DLDeviceType;\n"
        "typedef struct { DLDeviceType device_type; int device_id; } DLDevice;\n"
        "typedef struct { void* data; DLDevice device; } DLTensor;\n");
  std::string own_text = "#include \"bridge.h\"\n" + kUses;
  std::string torch_text = "#include \"wrapper.h\"\n" + kUses;
  write(project / "include" / "wrapper.h", "#pragma once\n#include <ATen/dlpack.h>\n");
  write(project / "own.cpp", own_text);
  write(project / "torch.cpp", torch_text);
  std::string flags = " -I" + (project / "include").string() + " -I" +
                      (project / "third_party" / "dlpack" / "include").string() + " -I" +
                      (project / "torch_include").string();
  write(project / "build" / "compile_commands.json",
        R"([{"directory": ")" + project.string() + R"(", "command": "c++)" + flags +
            R"( -c own.cpp", "file": "own.cpp"}, {"directory": ")" + project.string() + R"(", "command": "c++)" +
            flags + R"( -c torch.cpp", "file": "torch.cpp"}])");

  SourceFile own((project / "own.cpp").string(), own_text, Language::Cxx);
  CHECK(lint(own).empty());
  SourceFile torch((project / "torch.cpp").string(), torch_text, Language::Cxx);
  std::vector<Diagnostic> found = lint(torch);
  REQUIRE(found.size() == 4);
  CHECK(found[0].message.find("its build includes") != std::string::npos);
  CHECK(found[0].fixes.size() == 1);
}
