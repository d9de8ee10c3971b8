// SPDX-License-Identifier: MIT
// `torchmigrate report`: the migration report (HTML, or Markdown) of the files `check` would
// check, written to a file; with `--baseline`, the progress since the baseline was recorded.
#pragma once

#include <CLI/CLI.hpp>

#include "torchmigrate/cli/commands.hpp"

namespace torchmigrate::cli {

struct ReportOptions {
  CheckOptions check;  // the run: paths, configuration, selection, baseline, output file and format
};

void add_report_options(CLI::App& command, ReportOptions& options);
int run_report(const ReportOptions& options, const engine::Catalog& catalog);

}  // namespace torchmigrate::cli
