// SPDX-License-Identifier: MIT
// The facts read from a project's Python sources: whether it exports to ONNX through Dynamo
// (onnx_dynamo_export, onnx_export_dynamo_path), the environment variables it reads
// (python_environment_reads) and the Dynamo backends it registers (dynamo_backends, with the
// entry points of its packaging files). They are gathered in one pass that reads each file once
// and looks for the few words these facts start from; a file is parsed only when one is there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

void gather_python_source_facts(const ProjectTree& tree, ProjectFacts& facts);

// The pieces, for tests.
// Whether this Python source calls `torch.onnx.export(..., dynamo=True)` (names resolved
// through its imports).
bool calls_onnx_dynamo_export(std::string_view python_source);
// The 1-based line of the first call of `torch.onnx.export` in this Python source that does not
// pass `dynamo=False`; 0 when there is none.
uint32_t onnx_export_on_dynamo_path(std::string_view python_source);
// The environment variables this Python source reads by name, sorted and unique
// (environment_reads.cpp).
std::vector<std::string> environment_reads(std::string_view python_source);

}  // namespace torchmigrate::engine
