// SPDX-License-Identifier: MIT
// Branches of setup.py that a build with a given CUDA version never takes: build scripts pick
// TORCH_CUDA_ARCH_LIST by the toolkit's version (`if bare_metal_version >= Version("11.8"): ...
// elif ...`), and only the branch that CUDA release takes is its architecture list.
#pragma once

#include <cstdint>
#include <string_view>

#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::checks {

struct CudaVersion {
  int major = 0;
  int minor = 0;
};

// Whether the code at `offset` lies in an if/elif/else branch that a build with `cuda` never runs:
// its own test of a CUDA version is false there, or an earlier test of the same chain is true.
// A test is a comparison of a name that spells `cuda` or `bare_metal` with a version literal
// (`Version("11.8")`, `"11.8"`, `(11, 8)`, `11.8`); any other condition is read as "may hold".
bool unreachable_with_cuda(const python::SyntaxTree& tree, uint32_t offset, CudaVersion cuda);

// Whether the shell code at `offset` lies in an arm of a `case` whose pattern names only CUDA
// releases older than `from` (`cu113)`, `cu117|cu118)`, `11.8)`, `cuda-12.6)`): packaging scripts
// pick TORCH_CUDA_ARCH_LIST per toolkit, and an older toolkit's list is not the new builds'.
// A pattern with a wildcard or without a CUDA release may match anything: false.
bool in_case_arm_below_cuda(std::string_view shell, uint32_t offset, CudaVersion from);

}  // namespace torchmigrate::checks
