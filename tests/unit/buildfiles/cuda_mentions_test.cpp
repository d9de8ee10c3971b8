// SPDX-License-Identifier: MIT
// Where build files name CUDA 13 or another torch wheel index (the `cuda_mentions` fact).
#include <catch2/catch.hpp>

#include "torchmigrate/buildfiles/cuda_mentions.hpp"

using torchmigrate::buildfiles::CudaMentions;
using torchmigrate::buildfiles::find_cuda_mentions;

namespace {
CudaMentions mentions(std::string_view text) {
  CudaMentions out;
  find_cuda_mentions(text, "f", out);
  return out;
}
}  // namespace

TEST_CASE("cuda mentions: CUDA 13 images, toolkits and indexes") {
  CHECK(mentions("FROM nvidia/cuda:13.0.1-devel-ubuntu24.04 AS build\n").cuda13 ==
        "`nvidia/cuda:13.0.1-devel-ubuntu24.04` in f");
  CHECK(mentions("--index-url https://download.pytorch.org/whl/cu130\n").cuda13 ==
        "`download.pytorch.org/whl/cu130` in f");
  CHECK(mentions("pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu130\n").cuda13 ==
        "`download.pytorch.org/whl/nightly/cu130` in f");
  CHECK(mentions("  - cuda-toolkit=13.0\n").cuda13 == "`cuda-toolkit=13.0` in f");
  CHECK(mentions("ENV CUDA_VERSION=13.0.1\n").cuda13 == "`CUDA_VERSION=13.0.1` in f");
  CHECK(mentions("      CUDA_VERSION: \"13.0\"\n").cuda13 == "`CUDA_VERSION: 13.0` in f");
}

TEST_CASE("cuda mentions: other builds, comments and look-alikes") {
  CudaMentions cu128 = mentions("--index-url https://download.pytorch.org/whl/cu128\nENV CUDA_VERSION=12.8\n");
  CHECK(cu128.cuda13.empty());
  CHECK(cu128.other_index == "`download.pytorch.org/whl/cu128` in f");
  CHECK(mentions("pip install torch --index-url https://download.pytorch.org/whl/cpu\n").other_index ==
        "`download.pytorch.org/whl/cpu` in f");
  CHECK(mentions("# FROM nvidia/cuda:13.0.1-devel\n").cuda13.empty());
  CHECK(mentions("ENV MY_CUDA_VERSION=13\nENV CUDA_VERSION=130\n").cuda13.empty());
  CHECK(mentions("FROM nvidia/cuda:12.9.1-devel\n").cuda13.empty());
}

TEST_CASE("cuda mentions: every wheel index build, first mention of each") {
  CudaMentions both = mentions(
      "--extra-index-url https://download.pytorch.org/whl/cu126\n"
      "--find-links https://download.pytorch.org/whl/cu128/torch_stable.html\n"
      "--index-url https://download.pytorch.org/whl/nightly/cu128\n"
      "# https://download.pytorch.org/whl/cu129\n");
  REQUIRE(both.indexes.size() == 2);
  CHECK(both.indexes[0].first == "cu126");
  CHECK(both.index_of({"cu128", "cu129"}) == "`download.pytorch.org/whl/cu128/torch_stable.html` in f");
  CHECK(both.index_of({"cu129"}).empty());
  CHECK(mentions("https://download.pytorch.org/whl/torch_stable.html\n").indexes.empty());
}

TEST_CASE("cuda mentions: architecture-list entries") {
  using Entries = std::vector<std::pair<std::string, std::string>>;
  CHECK(mentions("ENV TORCH_CUDA_ARCH_LIST=\"7.0;8.0\"\n").arch_entries ==
        Entries{{"7.0", "`7.0` in `TORCH_CUDA_ARCH_LIST` in f"}, {"8.0", "`8.0` in `TORCH_CUDA_ARCH_LIST` in f"}});
  CHECK(mentions("ENV TORCH_CUDA_ARCH_LIST \"6.1 7.2+PTX\"\n").arch_entries.size() == 2);
  CHECK(
      mentions("TORCH_CUDA_ARCH_LIST=Pascal;8.6 python setup.py install\n").arch_entries ==
      Entries{{"Pascal", "`Pascal` in `TORCH_CUDA_ARCH_LIST` in f"}, {"8.6", "`8.6` in `TORCH_CUDA_ARCH_LIST` in f"}});
  CHECK(mentions("      TORCH_CUDA_ARCH_LIST: 7.5 8.0  # CI\n").arch_entries.size() == 2);
  CHECK(mentions("os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"5.2\"\n").arch_entries ==
        Entries{{"5.2", "`5.2` in `TORCH_CUDA_ARCH_LIST` in f"}});
  // Comment lines and mentions that set nothing.
  CHECK(mentions("# TORCH_CUDA_ARCH_LIST=7.0\necho $TORCH_CUDA_ARCH_LIST\n").arch_entries.empty());

  CudaMentions ptx = mentions("export TORCH_CUDA_ARCH_LIST=\"7.0+PTX 8.0\"\n");
  CHECK(ptx.arch_entry_of({"7.0", "Volta"}) == "`7.0+PTX` in `TORCH_CUDA_ARCH_LIST` in f");
  CHECK(ptx.arch_entry_of({"6.0", "Pascal"}).empty());
}
