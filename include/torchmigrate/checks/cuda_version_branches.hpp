// SPDX-License-Identifier: MIT
// Branches of setup.py that a build with a given CUDA version never takes: build scripts pick
// TORCH_CUDA_ARCH_LIST by the toolkit's version (`if bare_metal_version >= Version("11.8"): ...
// elif ...`), and only the branch that CUDA release takes is its architecture list.
#pragma once

#include <cstdint>

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

}  // namespace torchmigrate::checks
