// SPDX-License-Identifier: MIT
// `torchmigrate merge`: joins the JSON results of a sharded run (`check --shard K/N
// --output-format json -o shard-K.json`) into the report one unsharded `check` would print, in
// any of its formats, with its exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace torchmigrate::engine {
class Catalog;
}

namespace torchmigrate::cli {

struct MergeOptions {
  std::vector<std::string> inputs;  // every shard's JSON
  std::string output_format = "concise";
  std::string output_file;  // empty: stdout
  bool statistics = false;
  bool exit_zero = false;
  bool quiet = false;
  bool silent = false;
  std::string color = "auto";
};

// Adds the `merge` subcommand to `app`, filling `options` when it is parsed.
CLI::App* add_merge_command(CLI::App& app, MergeOptions& options);
int run_merge(const MergeOptions& options, const engine::Catalog& catalog);

}  // namespace torchmigrate::cli
