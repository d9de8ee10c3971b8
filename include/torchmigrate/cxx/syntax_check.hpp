// SPDX-License-Identifier: MIT
// A cheap syntax check of a C/C++/CUDA file, for the fixer: it refuses a fix after which a file
// has more problems than before. Only the counts before and after are compared.
#pragma once

#include <cstddef>

#include "torchmigrate/cxx/source_scan.hpp"

namespace torchmigrate::cxx {

// Brackets ((), [], {}) that close nothing or are never closed, over the tokens libclang
// lexed outside disabled blocks; 0 when libclang is not available (no tokens).
size_t unbalanced_brackets(const SourceScan& scan);

}  // namespace torchmigrate::cxx
