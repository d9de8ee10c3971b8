// SPDX-License-Identifier: MIT
// The variable-assignment readers (src/buildfiles/assignments.cpp, batch.cpp) in every format:
// the first byte picks the file name, the rest is the file. Ranges must lie in the text, and a
// removal must cover the assignment it removes.
#include <string>
#include <vector>

#include "buildfile_checks.hpp"
#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/batch.hpp"
#include "torchmigrate/buildfiles/file_kind.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view name = fuzz::kBuildFileNames[data[0] % fuzz::kBuildFileNameCount];
  const std::string text(fuzz::bytes(data + 1, size - 1));
  const buildfiles::FileKind kind = buildfiles::kind_for(std::string(name));
  const buildfiles::BuildFile file = buildfiles::BuildFile::read(text, kind);
  fuzz::require_valid_lines(file);
  static const std::vector<std::string> kNames = {"TORCH_CUDA_ARCH_LIST", "USE_SYSTEM_NVTX", "X", "ENV"};
  const std::vector<buildfiles::Assignment> found = kind == buildfiles::FileKind::Batch
                                                        ? buildfiles::find_batch_assignments(file, kNames)
                                                        : buildfiles::find_assignments(file, kNames);
  for (const buildfiles::Assignment& assignment : found) {
    fuzz::require_inside(assignment.name_range, text.size());
    fuzz::require_inside(assignment.value_range, text.size());
    if (assignment.removal) {
      fuzz::require_inside(*assignment.removal, text.size());
      FUZZ_REQUIRE(assignment.removal->start <= assignment.name_range.start);
    }
  }
  return 0;
}
