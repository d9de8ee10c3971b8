// SPDX-License-Identifier: MIT
// What `check` prints besides the report: file problems, the list of fixes, --output-file,
// and the files --add-noqa rewrites.
#pragma once

#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/run/baseline.hpp"
#include "torchmigrate/engine/run/session.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::cli {

// File problems (unreadable, skipped, not written, rolled back) on `err`; true if any is an error.
bool print_file_problems(const std::vector<engine::FileOutcome>& outcomes, std::ostream& err);
// Ruff's `--show-fixes` list: "Fixed N errors:" then, per file, a count per rule.
void print_fix_list(const std::vector<engine::FileOutcome>& outcomes, const engine::Catalog& catalog, std::ostream& out);
// --color: "always", "never", or "auto" (FORCE_COLOR, NO_COLOR, then whether stdout is a colour
// terminal); `to_stdout`: the report goes to stdout.
bool use_color(const std::string& choice, bool to_stdout);
// Opens --output-file, creating its parent directories; returns an error message or "".
std::string open_output_file(const std::string& path, std::ofstream& file);
// Closes --output-file (`path`, empty for stdout): exit 2 when it could not be written, else `exit_code`.
int close_output_file(const std::string& path, std::ofstream& file, int exit_code);
// --statistics with a format other than concise, full or json: says so on `err` and returns true.
bool statistics_format_refused(const std::string& format_name, std::ostream& err);
// The report in the format named, or its --statistics.
void write_report(const std::string& format_name, bool statistics, const output::Report& report, std::ostream& out);
// --add-noqa: writes a suppression onto every line with a finding; returns the exit code. A
// file named through a symbolic link that leads out of its project is left alone unless
// `follow_links` (--follow-links).
int add_noqa_to_files(const std::vector<engine::FileOutcome>& outcomes,
                      const std::vector<engine::DiscoveredFile>& files, const engine::Catalog& catalog,
                      std::ostream& err, bool follow_links);
// `report --baseline`: matches the findings against the baseline without hiding any; marks per
// finding whether the baseline did not record it (`new_since`, parallel to `outcomes`) and
// counts what was recorded and is gone.
output::BaselineProgress measure_progress(engine::Baseline& baseline, const std::vector<engine::FileOutcome>& outcomes,
                                          std::vector<std::vector<bool>>& new_since, const engine::Catalog& catalog);

}  // namespace torchmigrate::cli
