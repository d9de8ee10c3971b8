// SPDX-License-Identifier: MIT
// What a report keeps of a file with findings once they are known: the lines its findings and
// their fixes reach, not the whole text, so a run's memory grows with its findings rather than
// with the size of the files that hold them.
#pragma once

#include <memory>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::engine {

// The excerpt of `file` that `diagnostics` show; their ranges and their fixes' edits are
// rewritten to offsets into it. Every output format prints the same report from it as from
// `file` (tests/unit/output/shown_lines_test.cpp).
std::shared_ptr<const SourceFile> keep_shown_lines(const SourceFile& file, std::vector<Diagnostic>& diagnostics);

}  // namespace torchmigrate::engine
