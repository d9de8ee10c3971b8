// SPDX-License-Identifier: MIT
// One build file read by the line-based front: its kind and its logical lines. The build front
// splits a file once and gives it to all its checks (engine::FileCheckContext::build_file).
#pragma once

#include <string_view>
#include <vector>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/buildfiles/logical_lines.hpp"

namespace torchmigrate::buildfiles {

struct BuildFile {
  std::string_view text;  // the file's bytes (owned by its SourceFile)
  FileKind kind = FileKind::Unknown;
  std::vector<LogicalLine> lines;

  static BuildFile read(std::string_view text, FileKind kind) { return {text, kind, logical_lines(text, kind)}; }
};

}  // namespace torchmigrate::buildfiles
