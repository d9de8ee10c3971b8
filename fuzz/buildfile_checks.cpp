// SPDX-License-Identifier: MIT
// Every build-file rule and its fixes, through the linter and fixer: the first byte picks the
// file name (and so the format), the rest is the file.
#include <string>

#include "buildfile_checks.hpp"
#include "lint_support.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string name(fuzz::kBuildFileNames[data[0] % fuzz::kBuildFileNameCount]);
  const std::optional<SourceFile> file =
      fuzz::decoded_file(name, fuzz::bytes(data + 1, size - 1), engine::language_for(name));
  if (file) (void)fuzz::lint_and_fix(*file);
  return 0;
}
