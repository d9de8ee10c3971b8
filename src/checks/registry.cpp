// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/registry.hpp"

#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {

const engine::CheckRegistry& builtin_registry() {
  static const engine::CheckRegistry registry = [] {
    engine::CheckRegistry built;
    // Alphabetical by family name.
    built.add_python("argument-value", make_argument_value_check);
    built.add_python("autograd-function-mark-dirty", make_autograd_function_mark_dirty_check);
    built.add_python("base-init-arguments", make_base_init_arguments_check);
    built.add_python("call-in-context", make_call_in_context_check);
    built.add_file("cmake-removed-targets", make_cmake_removed_targets_check);
    built.add_python("config-option", make_config_option_check);
    built.add_python("constructed-object-method", make_constructed_object_method_check);
    built.add_file("cuda-arch-list", make_cuda_arch_list_check);
    built.add_python("custom-op-kernel-aliases-input", make_custom_op_kernel_aliases_input_check);
    built.add_file("cxx-deprecated-names", make_cxx_deprecated_names_check);
    built.add_file("cxx-missing-include", make_cxx_missing_include_check);
    built.add_file("cxx-namespace-moved", make_cxx_namespace_moved_check);
    built.add_file("cxx-removed-macro", make_cxx_removed_macro_check);
    built.add_file("cxx-renamed-identifier", make_cxx_renamed_identifier_check);
    built.add_python("deprecated-module-tree", make_deprecated_module_tree_check);
    built.add_file("env-var-value", make_env_var_value_check);
    built.add_python("exception-class-change", make_exception_class_change_check);
    built.add_python("exception-class-replaced", make_exception_class_replaced_check);
    built.add_python("export-training-mode", make_export_training_mode_check);
    built.add_python("exported-module-guards", make_exported_module_guards_check);
    built.add_python("hop-body-aliases-input", make_hop_body_aliases_input_check);
    built.add_python("keyword-only-arguments", make_keyword_only_arguments_check);
    built.add_python("missing-keyword", make_missing_keyword_check);
    built.add_file("missing-requirement", make_missing_requirement_check);
    built.add_python("moved-modules", make_moved_modules_check);
    built.add_python("mps-use", make_mps_use_check);
    built.add_file("old-requirement", make_old_requirement_check);
    built.add_python("onnx-dynamo-jit-module", make_onnx_dynamo_jit_module_check);
    built.add_file("pypi-cuda-default", make_pypi_cuda_default_check);
    built.add_file("python-floor", make_python_floor_check);
    built.add_python("registered-name-subscript", make_registered_name_subscript_check);
    built.add_python("removable-call", make_removable_call_check);
    built.add_python("renamed-callable", make_renamed_callable_check);
    built.add_python("renamed-enum-member", make_renamed_enum_member_check);
    built.add_file("renamed-env-var", make_renamed_env_var_check);
    built.add_file("requirement-excludes-pin", make_requirement_excludes_pin_check);
    built.add_python("segment-reduce", make_segment_reduce_check);
    built.add_python("sequence-dict-values", make_sequence_dict_values_check);
    built.add_python("tensordot-out", make_tensordot_out_check);
    return built;
  }();
  return registry;
}

}  // namespace torchmigrate::checks
