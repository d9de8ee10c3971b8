// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/registry.hpp"

#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {

const engine::CheckRegistry& builtin_registry() {
  static const engine::CheckRegistry registry = [] {
    engine::CheckRegistry built;
    // Alphabetical by family name.
    built.add_python("config-option", make_config_option_check);
    built.add_python("export-for-inference", make_export_for_inference_check);
    built.add_python("missing-keyword", make_missing_keyword_check);
    built.add_python("renamed-function", make_renamed_function_check);
    return built;
  }();
  return registry;
}

}  // namespace torchmigrate::checks
