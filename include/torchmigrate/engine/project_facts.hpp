// SPDX-License-Identifier: MIT
// Gathers the project-level facts some build-file rules depend on (does the project export to
// ONNX with dynamo=True? does its CMake find Torch?) before the files are linted one by one.
#pragma once

#include <string_view>
#include <vector>

#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::engine {

// Whether this Python source calls `torch.onnx.export(..., dynamo=True)` (names resolved
// through its imports).
bool calls_onnx_dynamo_export(std::string_view python_source);

// Reads only what can matter: nothing unless the run has build files; then Python files that
// mention both `onnx` and `dynamo`, and CMake files that mention `find_package`.
ProjectFacts gather_project_facts(const std::vector<DiscoveredFile>& files, const buildfiles::ExtraExtensions& extra,
                                  unsigned jobs);

}  // namespace torchmigrate::engine
