// SPDX-License-Identifier: MIT
// The CMake reader: logical lines of a CMake file (bracket comments, continuations) and the
// `find_package` question the C++ rules ask.
#include <string>

#include "buildfile_checks.hpp"
#include "torchmigrate/buildfiles/cmake.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::bytes(data, size));
  const buildfiles::BuildFile file = buildfiles::BuildFile::read(text, buildfiles::FileKind::CMake);
  fuzz::require_valid_lines(file);
  (void)buildfiles::calls_find_package(file, "Torch");
  (void)buildfiles::calls_find_package(file, "CUDAToolkit");
  return 0;
}
