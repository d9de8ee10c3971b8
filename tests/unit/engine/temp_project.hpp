// SPDX-License-Identifier: MIT
// A throw-away project tree for engine tests: a fresh directory with a `.git` entry (the edge of
// the upward searches) and a src/pkg folder.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace torchmigrate::engine {

// A fresh directory under the system temp dir, removed when the test ends.
class TempProject {
 public:
  TempProject() {
    static std::atomic<int> counter{0};
    root_ = std::filesystem::temp_directory_path() /
            ("torchmigrate-project-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "src" / "pkg");
    std::filesystem::create_directories(root_ / ".git");  // bounds the upward search
  }
  ~TempProject() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  TempProject(const TempProject&) = delete;
  TempProject& operator=(const TempProject&) = delete;

  void write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((root_ / name).parent_path());
    std::ofstream(root_ / name, std::ios::binary) << text;
  }
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  [[nodiscard]] std::vector<std::filesystem::path> source() const { return {root_ / "src" / "pkg"}; }

 private:
  std::filesystem::path root_;
};

}  // namespace torchmigrate::engine
