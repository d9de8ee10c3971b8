// SPDX-License-Identifier: MIT
// Windows cmd.exe scripts (.bat, .cmd): `set NAME=value`, `set "NAME=value"` and
// `setx NAME value`, read as cmd.exe reads them (quotes and trailing spaces of an unquoted
// `set` are part of the value).
#pragma once

#include <string>
#include <vector>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/build_file.hpp"

namespace torchmigrate::buildfiles {

// Assignments to any of `names` in a file of kind Batch, in file order.
std::vector<Assignment> find_batch_assignments(const BuildFile& file, const std::vector<std::string>& names);

}  // namespace torchmigrate::buildfiles
