// SPDX-License-Identifier: MIT
// Where a build file names the CUDA release it builds or installs for: a CUDA 13 image,
// toolkit or wheel index, or a wheel index of another build (`cu128`, `cpu`), and the GPU
// architectures it lists in `TORCH_CUDA_ARCH_LIST`. Read from the text line by line, skipping
// comment lines; the first mention of each kind is kept.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace torchmigrate::buildfiles {

struct CudaMentions {
  // The first CUDA 13 mention (`nvidia/cuda:13.0.1-devel`, `download.pytorch.org/whl/cu130`,
  // `cuda-toolkit=13`, `CUDA_VERSION=13.0`), with where it was seen; empty when none.
  std::string cuda13;
  // The first torch wheel index of another build (`download.pytorch.org/whl/cu128`, `.../cpu`).
  std::string other_index;
  // Every torch wheel index build named (`cu128`, `cu130`, `cpu`, `rocm6.4`), the first mention of
  // each, in the order seen: rules about one build (cu128 dropping Volta) look theirs up here.
  std::vector<std::pair<std::string, std::string>> indexes;

  // Every entry of a literal `TORCH_CUDA_ARCH_LIST` value (`7.0`, `8.6+PTX`, `Volta`), the first
  // mention of each (`` `7.0` in `TORCH_CUDA_ARCH_LIST` in docker/Dockerfile``), in the order seen.
  std::vector<std::pair<std::string, std::string>> arch_entries;

  // The first mention of the wheel index of one of `builds`, or "".
  [[nodiscard]] std::string index_of(const std::vector<std::string>& builds) const;
  // The first mention of one of `entries` (each also with `+PTX`) in an architecture list, or "".
  [[nodiscard]] std::string arch_entry_of(const std::vector<std::string>& entries) const;

  bool operator==(const CudaMentions&) const = default;
};

// Adds the mentions of `text` not yet known to `out`, each followed by ` in <where>`.
void find_cuda_mentions(std::string_view text, std::string_view where, CudaMentions& out);

}  // namespace torchmigrate::buildfiles
