// SPDX-License-Identifier: MIT
// `torchmigrate check` once its options are validated and its workspace is made.
#pragma once

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"

namespace torchmigrate::cli {

// Throws engine::ConfigError for a bad configuration met during the run.
int run_check_in(const CheckOptions& options, engine::Workspace& workspace);

}  // namespace torchmigrate::cli
