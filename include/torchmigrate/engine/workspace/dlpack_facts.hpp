// SPDX-License-Identifier: MIT
// Whether a project builds against a DLPack of its own (facts::own_dlpack): a dlpack.h in its tree
// outside torch, a dlpack submodule in `.gitmodules`, or a CMake dlpack target or package.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

// Walks the tree under `root` (skipping .git, build and virtual-environment folders) and stops at
// the first pre-0.5 dlpack.h; bounded, so a huge tree costs at most a fixed number of entries.
// `inputs` (may be null) gets every directory walked and every file read.
OwnDlpack find_own_dlpack(const std::filesystem::path& root, FactInputs* inputs = nullptr);

// The pieces, for tests: a `.gitmodules` text naming a dlpack submodule; a CMake text that finds,
// builds, fetches or adds a dlpack directory; a header text that declares the pre-0.5 names.
bool gitmodules_name_dlpack(std::string_view gitmodules);
bool cmake_uses_dlpack(std::string_view cmake);
bool declares_old_dlpack_names(std::string_view header);

}  // namespace torchmigrate::engine
