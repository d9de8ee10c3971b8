// SPDX-License-Identifier: MIT
// The `--diff` format: a unified diff per changed file, as `git apply` and `patch -p1` read it.
#pragma once

#include <ostream>
#include <string>

namespace torchmigrate::output {

void write_unified_diff(const std::string& path, const std::string& before, const std::string& after,
                        std::ostream& out);

}  // namespace torchmigrate::output
