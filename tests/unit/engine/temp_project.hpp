// SPDX-License-Identifier: MIT
// A throw-away project tree for engine tests: a temporary directory with a `.git` entry (the
// edge of the upward searches) and a src/pkg folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "../temp_dir.hpp"

namespace torchmigrate::engine {

class TempProject {
 public:
  TempProject() {
    std::filesystem::create_directories(dir_.path / "src" / "pkg");
    std::filesystem::create_directories(dir_.path / ".git");  // bounds the upward search
  }
  void write(const std::string& name, const std::string& text) const { dir_.write(name, text); }
  [[nodiscard]] const std::filesystem::path& root() const { return dir_.path; }
  [[nodiscard]] std::vector<std::filesystem::path> source() const { return {dir_.path / "src" / "pkg"}; }

 private:
  testing::TempDir dir_;
};

}  // namespace torchmigrate::engine
