// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/registry.hpp"

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {

const engine::CheckRegistry& builtin_registry() {
  static const engine::CheckRegistry registry = [] {
    engine::CheckRegistry built;
    // Alphabetical by family name.
    built.add_file("cxx-missing-include", make_cxx_missing_include_check);
    built.add_file("cxx-renamed-identifier", make_cxx_renamed_identifier_check);
    built.add_python("export-for-inference", make_export_for_inference_check);
    built.add_python("missing-keyword", make_missing_keyword_check);
    built.add_python("renamed-function", make_renamed_function_check);
    return built;
  }();
  return registry;
}

}  // namespace torchmigrate::checks
