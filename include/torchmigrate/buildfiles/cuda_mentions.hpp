// SPDX-License-Identifier: MIT
// Where a build file names the CUDA release it builds or installs for: a CUDA 13 image,
// toolkit or wheel index, or a wheel index of another build (`cu128`, `cpu`). Read from the
// text line by line, skipping comment lines; the first mention of each kind is kept.
#pragma once

#include <string>
#include <string_view>

namespace torchmigrate::buildfiles {

struct CudaMentions {
  // The first CUDA 13 mention (`nvidia/cuda:13.0.1-devel`, `download.pytorch.org/whl/cu130`,
  // `cuda-toolkit=13`, `CUDA_VERSION=13.0`), with where it was seen; empty when none.
  std::string cuda13;
  // The first torch wheel index of another build (`download.pytorch.org/whl/cu128`, `.../cpu`).
  std::string other_index;

  bool operator==(const CudaMentions&) const = default;
};

// Adds the mentions of `text` not yet known to `out`, each followed by ` in <where>`.
void find_cuda_mentions(std::string_view text, std::string_view where, CudaMentions& out);

}  // namespace torchmigrate::buildfiles
