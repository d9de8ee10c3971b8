// SPDX-License-Identifier: MIT
// A shard's JSON (`check --shard K/N --output-format json`): the json format's findings plus
// what `merge` needs to print the whole run's report in any format: which shard of which run
// (a fingerprint of the settings and the file list), the projects, and for each file with
// findings its checked text, settings and complete findings.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/cli/shard.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::cli {

// What every shard of one run computes alike, before the files are split.
struct ShardRun {
  Shard shard;
  std::string fingerprint;  // tool version, the options that shape the findings, every file and its size
  size_t files_total = 0;   // files of the whole run
  std::unordered_map<std::string, size_t> position;  // each file's index in the whole run
};

ShardRun start_shard_run(const CheckOptions& options, Shard shard, const std::vector<engine::DiscoveredFile>& files);

// {"findings": [the json format's array], "shard": {...}}; `report.projects` must be described.
void write_shard_json(const output::Report& report, const ShardRun& run, std::ostream& out);

// One shard read back; owns the texts and settings its findings point at.
struct ShardResult {
  Shard shard;
  std::string version, fingerprint, root, base;
  size_t files_total = 0, files_checked = 0;
  bool fix_mode = false;
  int fixed = 0;
  std::vector<output::ProjectSummary> projects;
  std::vector<std::shared_ptr<const engine::Settings>> settings;
  const engine::Settings* report_settings = nullptr;  // the run's (its first path's), one of `settings`
  struct File {
    size_t position = 0;  // index in the whole run
    output::FileFindings findings;
  };
  std::vector<File> files;
};

// Throws std::runtime_error saying what is wrong with the file.
ShardResult read_shard_json(const std::string& path);

}  // namespace torchmigrate::cli
