// SPDX-License-Identifier: MIT
// `check -`: one file read from standard input, as editors, formatters and review bots pipe it.
// `--stdin-filename` names it: its settings, project and torch range are that path's, and the
// report shows that name. With --fix the fixed text goes to stdout and the report to stderr.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"

namespace torchmigrate::cli {

// `-` among the paths, or --stdin-filename (which, as in Ruff, always reads standard input).
bool reads_stdin(const CheckOptions& options);
// The paths that --stdin-filename makes the run ignore (to warn about).
std::vector<std::string> ignored_for_stdin(const CheckOptions& options);
// Why this combination of options cannot read standard input, or "".
std::string stdin_usage_error(const CheckOptions& options);
// The name the input is checked and reported under.
std::string stdin_display_path(const CheckOptions& options);
// The file to check, or nullopt when --force-exclude excludes its name.
std::optional<engine::DiscoveredFile> stdin_file(const CheckOptions& options, engine::Workspace& workspace,
                                                 std::string bytes);

}  // namespace torchmigrate::cli
