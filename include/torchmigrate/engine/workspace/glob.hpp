// SPDX-License-Identifier: MIT
// Path globs for excludes and per-file ignores, matched by libgit2's pathspec engine (git's
// wildmatch: `*`, `?`, `[...]`, `**`), so they behave like the patterns users write for git.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace torchmigrate::engine {

class GlobSet {
 public:
  GlobSet();
  explicit GlobSet(std::vector<std::string> patterns);
  GlobSet(GlobSet&&) noexcept;
  GlobSet& operator=(GlobSet&&) noexcept;
  GlobSet(const GlobSet&) = delete;
  GlobSet& operator=(const GlobSet&) = delete;
  ~GlobSet();

  // `relative` uses `/` separators and is relative to the directory the patterns belong to.
  // A pattern without `/` also matches any single path component (the file or a directory).
  [[nodiscard]] bool matches(const std::string& relative) const;
  [[nodiscard]] bool empty() const { return patterns_.empty(); }
  [[nodiscard]] const std::vector<std::string>& patterns() const { return patterns_; }

 private:
  struct Impl;
  std::vector<std::string> patterns_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torchmigrate::engine
