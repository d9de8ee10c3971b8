// SPDX-License-Identifier: MIT
// Factories of the built-in C/C++/CUDA checks. They read the file's token scan, which the C/C++
// front makes once per file, through FileCheckContext::source_scan().
#pragma once

#include <memory>

#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/engine/lint/file_check.hpp"

namespace torchmigrate::checks {

std::unique_ptr<engine::FileCheck> make_cxx_renamed_identifier_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cxx_missing_include_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cxx_removed_macro_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cxx_namespace_moved_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cxx_deprecated_names_check(const engine::RuleSpec& rule);

}  // namespace torchmigrate::checks
