// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>
#include <string>

#include "torchmigrate/checks/cuda_version_branches.hpp"

using torchmigrate::checks::CudaVersion;
using torchmigrate::checks::unreachable_with_cuda;
namespace python = torchmigrate::python;

namespace {

// Whether the line holding `marker` is never run by a build with `cuda`.
bool unreachable(const std::string& source, const std::string& marker, CudaVersion cuda = {13, 0}) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  return unreachable_with_cuda(tree, static_cast<uint32_t>(source.find(marker)), cuda);
}

const std::string kChain =
    "if bare_metal_version >= Version(\"11.8\"):\n"
    "    arch = 'A'\n"
    "elif bare_metal_version >= Version(\"11.1\"):\n"
    "    arch = 'B'\n"
    "elif bare_metal_version == (11, 0):\n"
    "    arch = 'C'\n"
    "else:\n"
    "    arch = 'D'\n";

}  // namespace

TEST_CASE("only the branch a CUDA release takes is reachable") {
  CHECK_FALSE(unreachable(kChain, "'A'"));
  CHECK(unreachable(kChain, "'B'"));
  CHECK(unreachable(kChain, "'C'"));
  CHECK(unreachable(kChain, "'D'"));
  CHECK(unreachable(kChain, "'A'", {11, 0}));
  CHECK_FALSE(unreachable(kChain, "'C'", {11, 0}));
}

TEST_CASE("version literals in their spellings, either side of the comparison") {
  CHECK(unreachable("if cuda_major < 12:\n    x = 1\n", "x ="));
  CHECK(unreachable("if \"12.4\" >= CUDA_VERSION:\n    x = 1\n", "x ="));
  CHECK_FALSE(unreachable("if torch.version.cuda >= '12.8':\n    x = 1\n", "x ="));
  CHECK_FALSE(unreachable("if cuda_version != 12.6:\n    x = 1\n", "x ="));
}

TEST_CASE("conditions that do not test a CUDA version may hold") {
  CHECK_FALSE(unreachable("if python_version < (3, 8):\n    x = 1\n", "x ="));
  CHECK_FALSE(unreachable("if use_cuda and cuda_major < 12:\n    x = 1\n", "x ="));
  CHECK_FALSE(unreachable("if os.name == 'nt':\n    x = 1\nelse:\n    y = 2\n", "y ="));
  CHECK_FALSE(unreachable("x = 1\n", "x ="));
}

TEST_CASE("A shell case arm that names only older toolkits is not the new builds' list") {
  using torchmigrate::checks::in_case_arm_below_cuda;
  const std::string script =
      "case \"$CU_VERSION\" in\n"
      "  cu113)\n"
      "    export CUDA_HOME=/usr/local/cuda-11.3/\n"
      "    export TORCH_CUDA_ARCH_LIST=\"3.7;5.0;7.0\"  # A\n"
      "    ;;\n"
      "  cu92|cu117|\"11.8\")\n"
      "    export TORCH_CUDA_ARCH_LIST=\"5.0;7.0\"  # B\n"
      "    ;;\n"
      "  cu128) export TORCH_CUDA_ARCH_LIST=\"7.0;8.0\"  # C\n"
      "    ;;\n"
      "  cu126|cu128)\n"
      "    export TORCH_CUDA_ARCH_LIST=\"5.0\"  # D\n"
      "    ;;\n"
      "  *)\n"
      "    export TORCH_CUDA_ARCH_LIST=\"5.0\"  # E\n"
      "    ;;\n"
      "esac\n"
      "export TORCH_CUDA_ARCH_LIST=\"5.0\"  # F\n"
      "build() {\n"
      "  export TORCH_CUDA_ARCH_LIST=\"5.0\"  # G\n"
      "}\n";
  auto below = [&](const std::string& marker, CudaVersion from = {12, 8}) {
    size_t at = script.find(marker);
    REQUIRE(at != std::string::npos);
    return in_case_arm_below_cuda(script, static_cast<uint32_t>(script.rfind("=\"", at) + 1), from);
  };
  CHECK(below("# A"));
  CHECK(below("# B"));
  CHECK_FALSE(below("# C"));     // the arm of a 12.8 build, on the pattern's own line
  CHECK(below("# C", {13, 0}));  // not a CUDA 13 build
  CHECK_FALSE(below("# D"));     // one alternative is a 12.8 build
  CHECK_FALSE(below("# E"));     // a wildcard may be any toolkit
  CHECK_FALSE(below("# F"));     // outside the case
  CHECK_FALSE(below("# G"));     // a function body, not an arm
}
