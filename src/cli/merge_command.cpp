// SPDX-License-Identifier: MIT
// `torchmigrate merge`: checks that the shards belong to one run and that none is missing or
// given twice, then prints their findings as one report, in the order one run finds them.
#include "torchmigrate/cli/merge_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include "torchmigrate/cli/check_output.hpp"
#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/cli/shard_result.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/output/report.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::cli {
namespace {

namespace fs = std::filesystem;

std::string shard_name(const Shard& shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.total); }

// An empty string when the shards make up exactly one run, else what does not fit.
std::string mismatch(const std::vector<ShardResult>& shards, const std::vector<std::string>& inputs) {
  const ShardResult& first = shards.front();
  for (size_t i = 0; i < shards.size(); ++i) {
    const ShardResult& shard = shards[i];
    std::string name = "`" + inputs[i] + "` (shard " + shard_name(shard.shard) + ")";
    if (shard.version != kVersion) {
      return name + " was written by torchmigrate " + shard.version + ", this is " + kVersion;
    }
    if (shard.shard.total != first.shard.total) {
      return name + " splits the run into " + std::to_string(shard.shard.total) + " shards, `" + inputs[0] + "` into " +
             std::to_string(first.shard.total);
    }
    if (shard.fingerprint != first.fingerprint) {
      return name + " comes from another run than `" + inputs[0] +
             "`: different options, configuration, files or torchmigrate build";
    }
  }
  std::map<unsigned, size_t> given;
  for (size_t i = 0; i < shards.size(); ++i) {
    auto [it, added] = given.emplace(shards[i].shard.index, i);
    if (!added) {
      return "shard " + shard_name(shards[i].shard) + " is given twice: `" + inputs[it->second] + "` and `" + inputs[i] + "`";
    }
  }
  std::string missing;
  for (unsigned k = 1; k <= first.shard.total; ++k) {
    if (!given.contains(k)) missing += (missing.empty() ? "" : ", ") + shard_name({k, first.shard.total});
  }
  if (!missing.empty()) return "missing shard" + std::string(missing.find(',') == std::string::npos ? " " : "s ") + missing;
  std::set<size_t> positions;
  size_t checked = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    checked += shards[i].files_checked;
    for (const ShardResult::File& file : shards[i].files) {
      if (!positions.insert(file.position).second) {
        return "`" + file.findings.file->path() + "` is in more than one shard (again in `" + inputs[i] + "`)";
      }
    }
  }
  if (checked != first.files_total) {
    return "the shards checked " + std::to_string(checked) + " files, the run has " + std::to_string(first.files_total);
  }
  return {};
}

// Where `project` lies, for ordering projects as one run does (by their directories).
fs::path project_directory(const ShardResult& shard, const output::ProjectSummary& project) {
  return (fs::path(shard.root) / project.root).lexically_normal();
}

// The projects of the whole run, each once with its files counted over every shard; the
// shards' per-file project indices are remapped to this list.
void merge_projects(std::vector<ShardResult>& shards, output::Report& report) {
  std::map<fs::path, output::ProjectSummary> by_directory;
  size_t files = 0;
  for (const ShardResult& shard : shards) {
    for (const output::ProjectSummary& project : shard.projects) files += project.files;
  }
  for (const ShardResult& shard : shards) {
    for (const output::ProjectSummary& project : shard.projects) {
      // A run without files names the project of its first path, with no files; a run with
      // files names only the projects that hold some.
      if (project.files == 0 && (files > 0 || shard.shard.index != 1)) continue;
      auto [it, added] = by_directory.try_emplace(project_directory(shard, project), project);
      if (!added) it->second.files += project.files;
    }
  }
  std::map<fs::path, size_t> index;
  for (const auto& [directory, project] : by_directory) {
    index.emplace(directory, report.projects.size());
    report.projects.push_back(project);
  }
  for (ShardResult& shard : shards) {
    for (ShardResult::File& file : shard.files) {
      if (file.findings.project >= shard.projects.size()) continue;
      auto it = index.find(project_directory(shard, shard.projects[file.findings.project]));
      if (it != index.end()) file.findings.project = it->second;
    }
  }
}

}  // namespace

CLI::App* add_merge_command(CLI::App& app, MergeOptions& options) {
  CLI::App* merge = app.add_subcommand(
      "merge", "Join the JSON results of `check --shard K/N --output-format json` into one report of any format");
  merge->add_option("SHARD", options.inputs, "Every shard's JSON result (written with -o)")->required();
  merge->add_option("--output-format", options.output_format, "Report format")
      ->envname("TORCHMIGRATE_OUTPUT_FORMAT")
      ->check(CLI::IsMember(output::format_names()))
      ->capture_default_str();
  merge->add_option("-o,--output-file", options.output_file, "Write the report to this file instead of stdout");
  merge->add_flag("--statistics", options.statistics, "Print the number of findings per rule instead of the findings");
  merge->add_flag("--exit-zero", options.exit_zero, "Exit 0 even when findings remain");
  merge->add_option("--color", options.color, "Colour the text report: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  merge->add_flag("-q,--quiet", options.quiet, "Print the findings only: no summary");
  merge->add_flag("-s,--silent", options.silent, "Print no report; only the exit code tells");
  return merge;
}

int run_merge(const MergeOptions& options, const engine::Catalog& catalog) {
  const std::string& format_name = options.output_format;
  if (options.statistics && statistics_format_refused(format_name, std::cerr)) return kExitUsage;
  std::vector<ShardResult> shards;
  try {
    for (const std::string& input : options.inputs) shards.push_back(read_shard_json(input));
  } catch (const std::runtime_error& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  if (std::string problem = mismatch(shards, options.inputs); !problem.empty()) {
    std::cerr << "torchmigrate: error: cannot merge: " << problem << '\n';
    return kExitUsage;
  }
  std::ofstream output_file;
  if (!options.output_file.empty()) {
    if (std::string error = open_output_file(options.output_file, output_file); !error.empty()) {
      std::cerr << "torchmigrate: error: " << error << '\n';
      return kExitUsage;
    }
  }
  std::ostream& out = options.output_file.empty() ? std::cout : output_file;

  std::sort(shards.begin(), shards.end(), [](const ShardResult& a, const ShardResult& b) {
    return a.shard.index < b.shard.index;
  });
  output::Report report;
  report.catalog = &catalog;
  report.root = shards.front().root;
  report.base = shards.front().base;
  if (format_name == "html" || format_name == "markdown") merge_projects(shards, report);
  std::vector<ShardResult::File*> files;
  for (ShardResult& shard : shards) {
    report.files_checked += shard.files_checked;
    report.fixed += shard.fixed;
    report.fix_mode = report.fix_mode || shard.fix_mode;
    for (ShardResult::File& file : shard.files) files.push_back(&file);
  }
  std::sort(files.begin(), files.end(), [](const auto* a, const auto* b) { return a->position < b->position; });
  size_t remaining = 0;
  for (ShardResult::File* file : files) {
    remaining += file->findings.diagnostics.size();
    report.files.push_back(std::move(file->findings));
  }
  report.settings = shards.front().report_settings;
  report.summary = !options.quiet;
  report.color = use_color(options.color, options.output_file.empty());
  if (!options.silent || !options.output_file.empty()) write_report(format_name, options.statistics, report, out);
  out.flush();
  int exit_code = remaining > 0 && !options.exit_zero ? kExitFindings : kExitClean;
  return close_output_file(options.output_file, output_file, exit_code);
}

}  // namespace torchmigrate::cli
