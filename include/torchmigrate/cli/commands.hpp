// SPDX-License-Identifier: MIT
// The subcommands of the `torchmigrate` executable. Each returns the process exit code:
// 0 nothing found, 1 findings, 2 usage or configuration error.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace torchmigrate::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;

struct CheckOptions {
  std::vector<std::string> paths;
  std::vector<std::string> select, extend_select, ignore, policies;
  std::string output_format = "concise";
  std::string min_torch;
  bool fix = false;
  bool unsafe_fixes = false;
  bool diff = false;
  bool exit_zero = false;
  unsigned jobs = 0;
};

void add_check_options(CLI::App& command, CheckOptions& options);
int run_check(const CheckOptions& options);
int run_rule(const std::string& code);
int run_rules(const std::string& format);
// Serves the Language Server Protocol over stdin/stdout until the client exits.
int run_server();

}  // namespace torchmigrate::cli
