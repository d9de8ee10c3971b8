// SPDX-License-Identifier: MIT
// The project-level facts some single-file rules depend on (does the project export to ONNX
// with dynamo=True? does its CMake find Torch?), gathered from one project's own files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/discovery.hpp"

namespace torchmigrate::engine {

// A DLPack the project builds against itself rather than torch's `ATen/dlpack.h` (TM151).
struct ProjectDlpack {
  bool ships_own = false;           // a dlpack.h outside torch, a dlpack submodule or CMake dlpack target
  bool declares_old_names = false;  // its dlpack.h still has kDLGPU/kDLCPUPinned/DLContext (before 0.5)
  std::string evidence;             // where it was seen, relative to the project root
};

struct ProjectFacts {
  bool calls_onnx_dynamo_export = false;  // a Python file calls torch.onnx.export(..., dynamo=True)
  bool cmake_finds_torch = false;         // a CMake file calls find_package(Torch)
  ProjectDlpack dlpack;
};

// Which of the facts above a file's findings may depend on: the result cache keys a file by
// these alone, so a file whose rules read none never waits for them to be gathered.
struct FactsRead {
  bool dynamo_export = false;  // ProjectFacts::calls_onnx_dynamo_export
  bool finds_torch = false;    // ProjectFacts::cmake_finds_torch
  bool dlpack = false;         // ProjectFacts::dlpack
  FactsRead& operator|=(const FactsRead& other) {
    dynamo_export = dynamo_export || other.dynamo_export;
    finds_torch = finds_torch || other.finds_torch;
    dlpack = dlpack || other.dlpack;
    return *this;
  }
  [[nodiscard]] bool any() const { return dynamo_export || finds_torch || dlpack; }
  [[nodiscard]] unsigned bits() const {
    return unsigned{dynamo_export} | unsigned{finds_torch} << 1 | unsigned{dlpack} << 2;
  }
};

// Whether this Python source calls `torch.onnx.export(..., dynamo=True)` (names resolved
// through its imports).
bool calls_onnx_dynamo_export(std::string_view python_source);

// Reads only what can matter: Python files that mention both `onnx` and `dynamo`, and CMake
// files that mention `find_package`.
ProjectFacts gather_project_facts(const std::vector<DiscoveredFile>& files, const buildfiles::ExtraExtensions& extra,
                                  unsigned jobs);

}  // namespace torchmigrate::engine
