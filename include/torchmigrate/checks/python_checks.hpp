// SPDX-License-Identifier: MIT
// Factories of the built-in Python checks; registry.cpp lists them by family name.
#pragma once

#include <memory>

#include "torchmigrate/engine/lint/python_check.hpp"

namespace torchmigrate::checks {

std::unique_ptr<engine::PythonCheck> make_call_in_context_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_argument_value_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_autograd_function_mark_dirty_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_base_init_arguments_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_config_option_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_constructed_object_method_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_custom_op_kernel_aliases_input_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_deprecated_module_tree_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_exception_class_change_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_exception_class_replaced_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_export_training_mode_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_exported_module_guards_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_hop_body_aliases_input_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_keyword_only_arguments_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_missing_keyword_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_moved_modules_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_mps_use_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_onnx_dynamo_jit_module_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_registered_name_subscript_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_removable_call_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_renamed_callable_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_renamed_enum_member_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_segment_reduce_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_sequence_dict_values_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::PythonCheck> make_tensordot_out_check(const engine::RuleSpec& rule);

}  // namespace torchmigrate::checks
