// SPDX-License-Identifier: MIT
// What `check` says about the projects it runs in: the supported torch range of each project
// (stderr, before the report) and `--show-settings`, the resolved context of given files.
#pragma once

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"
#include "torchmigrate/output/report.hpp"

namespace torchmigrate::cli {

// Warnings only for machine-readable formats and --quiet (with -v, the notes about ignored pins
// too); Normal: one line, counting those notes; Verbose (-v): a line per project naming its
// directory and the configuration file that applied there, and every note.
enum class ContextLines { Warnings, WarningsAndNotes, Normal, Verbose };

// The projects of the run by root, each with the context of its first file; a run of no files
// names the project of its first path.
std::map<std::filesystem::path, engine::FileContext> projects_of_run(engine::Workspace& workspace,
                                                       const std::vector<engine::DiscoveredFile>& files,
                                                       const std::vector<std::string>& paths);

// Fills `report.projects` (each project's directory relative to `report.root`, as the CI formats
// print paths; its torch range and file count) and the project of each file with findings.
void describe_projects(engine::Workspace& workspace, const std::vector<engine::DiscoveredFile>& files,
                       const std::vector<std::string>& paths, output::Report& report);

// The run's torch range ("supported torch >= 2.7 (from requirements.txt:1)"), one line for a run
// over several projects (-v: one per project, prefixed by its directory); conflicting pins
// (warnings) and the pins that could not be read (notes; a count without -v).
void print_torch_ranges(engine::Workspace& workspace, const std::vector<engine::DiscoveredFile>& files,
                        const std::vector<std::string>& paths, ContextLines lines, std::ostream& err);

// `--show-settings`: for each file, its project root, configuration, torch range and source,
// policies, enabled rules, per-file ignores, compile database and project facts.
void print_settings(engine::Workspace& workspace, const std::vector<std::string>& paths, std::ostream& out);

}  // namespace torchmigrate::cli
