// SPDX-License-Identifier: MIT
// Factories of the built-in build-file checks (registry.cpp lists them by family name), and
// the assignment reader they share. The build front parses the file for them
// (FileCheckContext::build_file(), and python_tree() for setup.py).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/engine/lint/file_check.hpp"

namespace torchmigrate::checks {

// Assignments to any of `names`, read by the file's kind: build files line by line, setup.py
// (`os.environ[...] = ...` and the other spellings) through its Python syntax tree.
std::vector<buildfiles::Assignment> find_assignments(engine::FileCheckContext& context,
                                                     const std::vector<std::string>& names);
// The setup.py reader behind find_assignments.
std::vector<buildfiles::Assignment> setup_py_assignments(engine::FileCheckContext& context,
                                                         const std::vector<std::string>& names);

// Whether files of this kind set the environment torch runs in (shell, containers, CI, env
// files), rather than build variables (CMake, TOML, INI) or requirements.
bool sets_run_environment(buildfiles::FileKind kind);

// An assignment of `name` to `value` on a new line after `assignment`, in the same form, when
// `assignment` stands alone on its line (sibling_assignment.cpp says which lines do).
std::optional<Edit> sibling_assignment(const SourceFile& file, buildfiles::FileKind kind,
                                       const buildfiles::Assignment& assignment, std::string_view name,
                                       std::string_view value);

std::unique_ptr<engine::FileCheck> make_cuda_arch_list_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_cmake_removed_targets_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_env_var_value_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_missing_requirement_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_old_requirement_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_python_floor_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_renamed_env_var_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_pypi_cuda_default_check(const engine::RuleSpec& rule);
std::unique_ptr<engine::FileCheck> make_requirement_excludes_pin_check(const engine::RuleSpec& rule);

}  // namespace torchmigrate::checks
