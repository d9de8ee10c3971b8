// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/registry.hpp"

#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {

const engine::CheckRegistry& builtin_registry() {
  static const engine::CheckRegistry registry = [] {
    engine::CheckRegistry built;
    // Alphabetical by family name.
    built.add_python("ao-quantization", make_ao_quantization_check);
    built.add_python("export-for-inference", make_export_for_inference_check);
    built.add_python("missing-keyword", make_missing_keyword_check);
    built.add_python("mps-use", make_mps_use_check);
    built.add_python("onnx-dynamo-export", make_onnx_dynamo_export_check);
    built.add_python("renamed-function", make_renamed_function_check);
    built.add_python("segment-reduce", make_segment_reduce_check);
    return built;
  }();
  return registry;
}

}  // namespace torchmigrate::checks
