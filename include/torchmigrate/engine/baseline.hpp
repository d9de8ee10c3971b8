// SPDX-License-Identifier: MIT
// Baselines: record today's findings so CI reports only new ones. A fingerprint survives lines
// moving: code + path + normalised matched text + enclosing function. Findings that break on
// 2.8 (TM1xx) are never hidden by a baseline.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::engine {

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `path` is the file's path as reported (relative paths keep baselines portable).
std::string fingerprint(const SourceFile& file, const Diagnostic& diagnostic);
// Whether a baseline may hide findings of `code`.
bool baselinable(std::string_view code);

class Baseline {
 public:
  // Throws BaselineError for a missing or malformed file.
  static Baseline load(const std::filesystem::path& path);
  // Records every baselinable finding; writes atomically.
  static void write(const std::filesystem::path& path,
                    const std::vector<std::pair<const SourceFile*, std::vector<Diagnostic>>>& findings);

  // Removes findings the baseline knows, each baseline entry hiding at most one finding.
  size_t filter(const SourceFile& file, std::vector<Diagnostic>& diagnostics);

 private:
  std::map<std::string, size_t> remaining_;  // fingerprint -> count
};

}  // namespace torchmigrate::engine
