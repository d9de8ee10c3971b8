// SPDX-License-Identifier: MIT
// Whether a project ships its own DLPack: headers in its tree, submodules, CMake.
#include <catch2/catch.hpp>

#include <filesystem>

#include "torchmigrate/engine/workspace/dlpack_facts.hpp"

#include "../temp_dir.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate::engine;
using torchmigrate::testing::TempDir;
using torchmigrate::testing::write;

namespace {

const char* kOldHeader = "typedef enum {\n  kDLCPU = 1,\n  kDLGPU = 2,\n  kDLCPUPinned = 3,\n} DLDeviceType;\n";
const char* kNewHeader =
    "typedef enum {\n  kDLCPU = 1,\n  kDLCUDA = 2,\n  /* was kDLGPU */ kDLCUDAHost = 3,\n} DLDeviceType;\n";

}  // namespace

TEST_CASE("pre-0.5 DLPack headers are told from later ones") {
  CHECK(declares_old_dlpack_names(kOldHeader));
  CHECK(declares_old_dlpack_names("typedef DLDevice DLContext;\n"));  // DLPack 0.4's alias
  CHECK(declares_old_dlpack_names("typedef struct {\n  int device_id;\n} DLContext;\n"));
  CHECK_FALSE(declares_old_dlpack_names(kNewHeader));
  CHECK_FALSE(declares_old_dlpack_names("DLContext* legacy(void);\nint kDLGPUX = 1;\n"));
}

TEST_CASE("submodules and CMake that bring a DLPack") {
  CHECK(gitmodules_name_dlpack("[submodule \"third_party/dlpack\"]\n\tpath = third_party/dlpack\n"));
  CHECK(gitmodules_name_dlpack("[submodule \"dl\"]\n  path = ext/dl\n  url = https://example.com/dmlc/DLPack.git\n"));
  CHECK_FALSE(gitmodules_name_dlpack("[submodule \"fmt\"]\n\tpath = third_party/fmt\n# dlpack later\n"));

  CHECK(cmake_uses_dlpack("find_package( DLPack CONFIG REQUIRED)\n"));
  CHECK(cmake_uses_dlpack("add_library(dlpack INTERFACE)\n"));
  CHECK(cmake_uses_dlpack("add_subdirectory(${PROJECT_SOURCE_DIR}/third_party/dlpack)\n"));
  CHECK(cmake_uses_dlpack("FetchContent_Declare(\n  dlpack\n  GIT_REPOSITORY x)\n"));
  CHECK_FALSE(cmake_uses_dlpack("# find_package(dlpack)\nfind_package(Torch REQUIRED)\n"));
  CHECK_FALSE(cmake_uses_dlpack("add_subdirectory(src)\nset(X dlpack)\n"));
}

TEST_CASE("a project tree is searched for its own DLPack") {
  TempDir dir;
  SECTION("nothing") {
    write(dir.path / "src" / "a.cpp", "int a;\n");
    OwnDlpack facts = find_own_dlpack(dir.path);
    CHECK_FALSE(facts.ships_own);
    CHECK(facts.evidence.empty());
  }
  SECTION("a vendored pre-0.5 header wins over CMake") {
    write(dir.path / "CMakeLists.txt", "add_subdirectory(third_party/dlpack)\n");
    write(dir.path / "third_party" / "dlpack" / "include" / "dlpack" / "dlpack.h", kOldHeader);
    OwnDlpack facts = find_own_dlpack(dir.path);
    CHECK(facts.ships_own);
    CHECK(facts.declares_old_names);
    CHECK(facts.evidence == "third_party/dlpack/include/dlpack/dlpack.h");
  }
  SECTION("a later header is the project's too, but not old") {
    write(dir.path / "include" / "dlpack.h", kNewHeader);
    OwnDlpack facts = find_own_dlpack(dir.path);
    CHECK(facts.ships_own);
    CHECK_FALSE(facts.declares_old_names);
  }
  SECTION("a submodule not checked out") {
    write(dir.path / ".gitmodules", "[submodule \"3rdparty/dlpack\"]\n\tpath = 3rdparty/dlpack\n");
    OwnDlpack facts = find_own_dlpack(dir.path);
    CHECK(facts.ships_own);
    CHECK(facts.evidence == ".gitmodules");
  }
  SECTION("CMake in a subdirectory") {
    write(dir.path / "cpp" / "CMakeLists.txt", "find_package(dlpack REQUIRED)\n");
    CHECK(find_own_dlpack(dir.path).evidence == "cpp/CMakeLists.txt");
  }
  SECTION("torch's header, environments and build output are not the project's") {
    write(dir.path / "third_party" / "ATen" / "dlpack.h", kOldHeader);
    write(dir.path / ".venv" / "lib" / "dlpack" / "dlpack.h", kOldHeader);
    write(dir.path / "venv" / "include" / "dlpack.h", kOldHeader);
    write(dir.path / "build" / "_deps" / "dlpack" / "dlpack.h", kOldHeader);
    write(dir.path / "build" / "CMakeLists.txt", "add_library(dlpack INTERFACE)\n");
    write(dir.path / "pkg" / "torch" / "include" / "dlpack" / "dlpack.h", kOldHeader);
    CHECK_FALSE(find_own_dlpack(dir.path).ships_own);
  }
}
