// SPDX-License-Identifier: MIT
// The requirement reader (src/buildfiles/requirements.cpp) in every format it reads, through
// the logical-line splitter: the first byte picks the file name, the rest is the file.
#include <string>

#include "buildfile_checks.hpp"
#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view name = fuzz::kBuildFileNames[data[0] % fuzz::kBuildFileNameCount];
  const std::string text(fuzz::bytes(data + 1, size - 1));
  const buildfiles::BuildFile file = buildfiles::BuildFile::read(text, buildfiles::kind_for(std::string(name)));
  fuzz::require_valid_lines(file);
  for (const char* package : {"torch", "torchvision", "numpy"}) {
    for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(file, package)) {
      fuzz::require_inside(requirement.range, text.size());
      fuzz::require_inside(requirement.specifier_range, text.size());
      if (requirement.needs_quoting) fuzz::require_inside(requirement.word_range, text.size());
    }
  }
  // The single-requirement parsers on the whole text, as a requirement line and a conda spec.
  for (auto parsed : {buildfiles::parse_pep508(text), buildfiles::parse_conda_spec(text)}) {
    if (!parsed) continue;
    FUZZ_REQUIRE(parsed->name_begin <= parsed->name_end && parsed->name_end <= text.size());
    FUZZ_REQUIRE(parsed->specifier_begin <= parsed->specifier_end && parsed->specifier_end <= text.size());
  }
  (void)buildfiles::normalize_name(text);
  return 0;
}
