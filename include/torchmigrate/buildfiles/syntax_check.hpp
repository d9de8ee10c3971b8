// SPDX-License-Identifier: MIT
// A cheap syntax check of a build file, for the fixer: it refuses a fix after which a file has
// more problems than before. Not a validator: only the counts before and after are compared.
#pragma once

#include <cstddef>

#include "torchmigrate/buildfiles/build_file.hpp"

namespace torchmigrate::buildfiles {

// TOML that does not parse counts 1; CMake: commands whose parentheses do not balance; every
// kind: logical lines that end inside a quote. setup.py is Python's to judge: 0.
size_t syntax_errors(const BuildFile& file);

}  // namespace torchmigrate::buildfiles
