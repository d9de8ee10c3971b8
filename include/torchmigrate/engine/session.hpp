// SPDX-License-Identifier: MIT
// One run over many files: read, lint or fix, and (for --fix) write back, in parallel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/fixer.hpp"
#include "torchmigrate/engine/linter.hpp"

namespace torchmigrate::engine {

enum class FixMode { Report, Apply, Diff };

struct FileOutcome {
  std::shared_ptr<const SourceFile> source;  // the text the diagnostics refer to (fixed text after --fix)
  std::vector<Diagnostic> diagnostics;
  std::vector<AppliedFix> applied;
  std::string original;  // the text as read, when fixes were computed
  bool changed = false;
};

std::vector<FileOutcome> run_session(const Linter& linter, const std::vector<DiscoveredFile>& files, FixMode mode,
                                     unsigned jobs);

}  // namespace torchmigrate::engine
