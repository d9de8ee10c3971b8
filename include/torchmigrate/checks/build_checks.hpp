// SPDX-License-Identifier: MIT
// Factories of the built-in build-file checks (registry.cpp lists them by family name), and
// the per-file build front they share.
#pragma once

#include <memory>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/engine/file_check.hpp"

namespace torchmigrate::checks {

// The file's kind and logical lines, split once per file for all build checks.
const buildfiles::BuildFile& build_file(engine::FileCheckContext& context);

std::unique_ptr<engine::FileCheck> make_cuda_arch_list_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cmake_removed_targets_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_old_requirement_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_renamed_env_var_check(const engine::RuleSpec& rule);

}  // namespace torchmigrate::checks
