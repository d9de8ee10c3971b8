// SPDX-License-Identifier: MIT
// Factories of the built-in C/C++/CUDA checks, and the token scan they share per file.
#pragma once

#include <memory>

#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/engine/lint/file_check.hpp"

namespace torchmigrate::checks {

// The file's token scan, made by the first C++ check that asks and shared by the others.
const cxx::SourceScan& source_scan(engine::FileCheckContext& context);

std::unique_ptr<engine::FileCheck> make_cxx_renamed_identifier_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cxx_missing_include_check(const engine::RuleSpec& rule);

}  // namespace torchmigrate::checks
