// SPDX-License-Identifier: MIT
// The oldest torch the checked project still supports: given explicitly (`--min-torch`, the
// config key `min-torch`), else read from the project's own pins, else the release the catalog
// migrates from (default_min_torch). Fix safety follows it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::engine {

struct TorchRange {
  TorchVersion min_torch = default_min_torch();
  std::string source = "default";  // "requirements.txt:3", "--min-torch", "default"
  std::vector<std::string> notes;  // files that were skipped, and why

  // "supported torch >= 2.7 (from requirements.txt:1)"
  [[nodiscard]] std::string describe() const;
};

// A value the user gave, and where: {"2.8", "--min-torch"} or {"2.8", "torchmigrate.toml:4"}.
struct TorchOverride {
  std::string value;
  std::string source;
};

// One `torch` requirement with a lower bound, found in a project file.
struct TorchPin {
  TorchVersion version;
  std::string source;  // "path/to/requirements.txt:3"
};

// Whether a file of this name is one of the pin files named below.
bool is_pin_file_name(std::string_view file_name);

// The nearest directory at or above each path that holds a requirements*.txt, constraints*.txt,
// pyproject.toml, setup.cfg, setup.py or environment*.yml; the search stops at a `.git` folder.
std::vector<std::filesystem::path> find_project_roots(const std::vector<std::filesystem::path>& paths);

// The torch pins of one file, chosen by its name; malformed content adds a note and is skipped.
std::vector<TorchPin> read_torch_pins(const std::filesystem::path& file, std::vector<std::string>& notes);

// The lowest torch lower bound pinned across the project roots of `paths` (ties: requirements,
// constraints, pyproject.toml, setup.cfg, setup.py, environment files, in that order); the
// default when nothing pins a lower bound.
TorchRange detect_torch_range(const std::vector<std::filesystem::path>& paths);

// An explicit override wins over detection; throws std::invalid_argument for a malformed value.
TorchRange resolve_torch_range(const std::optional<TorchOverride>& override_value,
                               const std::vector<std::filesystem::path>& paths);

}  // namespace torchmigrate::engine
