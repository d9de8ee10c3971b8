// SPDX-License-Identifier: MIT
// `torchmigrate report`: `check` with the report's format and output file, the baseline kept
// for progress instead of hiding findings, and exit 0 once the report is written.
#include "torchmigrate/cli/report_command.hpp"

#include <fmt/format.h>

#include <iostream>

namespace torchmigrate::cli {

void add_report_options(CLI::App& command, ReportOptions& options) {
  add_check_options(command, options.check);
  // What changes files, replaces the report or only makes sense for a terminal is not the report's.
  for (const char* name : {"--fix", "--unsafe-fixes", "--diff", "--fix-only", "--show-fixes", "--exit-zero",
                           "--exit-non-zero-on-fix", "--write-baseline", "--add-noqa", "--follow-links",
                           "--statistics", "--color", "--quiet", "--silent", "--show-files", "--show-settings",
                           "--output-format", "--output-file", "--baseline"}) {
    command.remove_option(command.get_option(name));
  }
  options.check.output_format = "html";
  command.add_option("-o,--output-file", options.check.output_file,
                     "Write the report to this file (default: report.html, or report.md for markdown)");
  command.add_option("--output-format", options.check.output_format, "html (one self-contained page) or markdown")
      ->check(CLI::IsMember({"html", "markdown"}))
      ->capture_default_str();
  command.add_option("--baseline", options.check.baseline,
                     "Show progress against this baseline (written by `check --write-baseline`): fixed and new since");
}

int run_report(const ReportOptions& options, const engine::Catalog& catalog) {
  CheckOptions check = options.check;
  if (check.output_file.empty()) check.output_file = check.output_format == "markdown" ? "report.md" : "report.html";
  check.baseline_progress = true;
  check.exit_zero = true;  // findings are the report's content, not a failure
  int exit_code = run_check(check, catalog);
  if (exit_code == kExitClean) std::cerr << fmt::format("torchmigrate: wrote the migration report to {}\n", check.output_file);
  return exit_code;
}

}  // namespace torchmigrate::cli
