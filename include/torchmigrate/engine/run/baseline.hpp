// SPDX-License-Identifier: MIT
// Baselines: record today's findings so CI reports only new ones. A fingerprint survives lines
// moving: code + path + normalised matched text + enclosing function. Findings of rules whose
// catalog `impact` is `breaks` are never hidden by a baseline.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::engine {

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where paths are relative to: `base` is the directory relative file paths are relative to (the
// working directory), `root` the one recorded paths are relative to (the repository root), so a
// baseline or CI report is the same from any directory of the repository. Empty: as given.
struct PathRoots {
  std::filesystem::path base;
  std::filesystem::path root;
};

// `path` relative to `roots.root` with `/` separators when it lies below it; otherwise the path
// as given (normalised). Baselines and the CI report formats print paths this way.
std::string root_relative(const std::string& path, const PathRoots& roots);

// Code + root-relative path + normalised matched text + enclosing scope.
std::string fingerprint(const SourceFile& file, const Diagnostic& diagnostic, const PathRoots& roots);
// Whether a baseline may hide findings of `code`: catalog rules whose impact is not `breaks`.
bool baselinable(std::string_view code, const Catalog& catalog);

// A recorded finding as the baseline file describes it.
struct BaselineEntry {
  std::string code;
  std::string path;  // relative to the root it was written for
  std::string message;
  size_t count = 1;
};

class Baseline {
 public:
  // Throws BaselineError for a missing or malformed file.
  static Baseline load(const std::filesystem::path& path, PathRoots roots, const Catalog& catalog);
  // Records every baselinable finding; writes atomically.
  static void write(const std::filesystem::path& path,
                    const std::vector<std::pair<const SourceFile*, std::vector<Diagnostic>>>& findings,
                    const PathRoots& roots, const Catalog& catalog);

  // Removes findings the baseline knows, each baseline entry hiding at most one finding.
  size_t filter(const SourceFile& file, std::vector<Diagnostic>& diagnostics);
  // How many findings the baseline recorded (an entry with a count of 3 is three).
  [[nodiscard]] size_t size() const { return size_; }
  // The recorded findings no call to `filter` has matched so far (their count is what is left).
  [[nodiscard]] std::vector<BaselineEntry> unmatched() const;

 private:
  explicit Baseline(const Catalog& catalog) : catalog_(&catalog) {}
  const Catalog* catalog_;
  std::map<std::string, size_t> remaining_;  // fingerprint -> count
  std::map<std::string, BaselineEntry> recorded_;  // fingerprint -> what the file says about it
  PathRoots roots_;
  size_t size_ = 0;
};

}  // namespace torchmigrate::engine
