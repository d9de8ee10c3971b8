// SPDX-License-Identifier: MIT
// The project facts read from its packaging and environment files (project_facts.hpp): the
// Python versions it admits, whether it declares onnxscript, and where its requirements are
// declared. Each gather function reads only the files of the kinds it needs.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

PythonVersions python_versions_of(const ProjectTree& tree);
bool declares_onnxscript_of(const ProjectTree& tree);
RequirementAnchor requirement_anchor_of(const ProjectTree& tree);

// What one file says about the Python versions the project admits, merged into `out` (the
// lowest version wins; on a tie the line seen first). `file` is relative to the project root.
void read_python_versions(const std::string& file, buildfiles::FileKind kind, std::string_view text,
                          PythonVersions& out);

// `path` relative to `root`, `/`-separated (both made absolute and normal first); empty when
// `path` lies outside `root`.
std::string project_relative(const std::filesystem::path& root, const std::filesystem::path& path);

}  // namespace torchmigrate::engine
