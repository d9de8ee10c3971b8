// SPDX-License-Identifier: MIT
// `--add-noqa`: writes a suppression for every current finding onto its line (`# noqa: CODES`,
// `// NOLINT(CODES)`), merging into a directive already there.
#pragma once

#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::engine {

struct NoqaResult {
  std::string text;                  // the file with the directives added
  size_t added = 0;                  // lines that gained or extended a directive
  std::vector<uint32_t> skipped_lines;  // 1-based: the line ends inside a string or a continuation
};

NoqaResult add_noqa(const SourceFile& file, const std::vector<Diagnostic>& diagnostics);

}  // namespace torchmigrate::engine
