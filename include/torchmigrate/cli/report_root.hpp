// SPDX-License-Identifier: MIT
// The directory that baselines and the CI report formats give paths relative to.
#pragma once

#include <string>

#include "torchmigrate/engine/run/baseline.hpp"

namespace torchmigrate::cli {

// `--project-root` when given; else `GITHUB_WORKSPACE` or `CI_PROJECT_DIR` when set and holding
// `first_path`; else the git top-level above `first_path`; else the working directory when it
// holds `first_path`, or else `first_path` (a file's directory). `base` is the working directory.
engine::PathRoots report_roots(const std::string& project_root_option, const std::string& first_path);

}  // namespace torchmigrate::cli
