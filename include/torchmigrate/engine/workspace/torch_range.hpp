// SPDX-License-Identifier: MIT
// The torch releases a project supports, `[min, max]`, read from every file that pins torch:
// package metadata and requirement files in the project's directory, and the environments it is
// built and tested in (Dockerfiles, conda recipes, CI matrices, tox.ini, install scripts), with
// the requirement files those name. Each file says one interval (its pins' hull: alternatives by
// marker or matrix entry). A lower bound says a release is supported; an upper bound, which only
// the package's own files give (an environment is one supported release among several), that
// the releases above it are not: the range runs from the lowest lower bound to the lowest upper
// bound, and when a lower bound lies above it, the widest range with a warning naming the two.
// Without any pin the project inherits its enclosing project's range (project.hpp), else the
// default: from the release the catalog migrates from, no upper bound.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/catalog/settings.hpp"

namespace torchmigrate::engine {

// What one file says about torch: the lowest and highest MAJOR.MINOR its pins admit.
struct TorchPin {
  std::optional<TorchVersion> lowest;   // none: no lower bound (`torch<2.9`)
  std::optional<TorchVersion> highest;  // none: no upper bound
  std::string source;                   // "path/to/requirements.txt:3"
};

struct TorchRange {
  TorchVersion min_torch = default_min_torch();
  std::optional<TorchVersion> max_torch;  // none: no upper bound pinned
  std::string source = "default";         // the pins that decided it, for one line
  std::vector<std::string> notes;         // files that were skipped, and why
  std::vector<std::string> warnings;      // pins that contradict each other
  std::string inherited_from;             // the enclosing project's directory, when inherited
  std::vector<std::filesystem::path> files;            // every file read for the project's own pins
  std::vector<std::filesystem::path> inherited_files;  // those read for the enclosing project

  [[nodiscard]] bool pinned() const { return source != "default"; }
  // "2.7-2.9", "2.7" (one release) or ">= 2.7".
  [[nodiscard]] std::string span() const;
  // "supported torch 2.7-2.9 (from requirements.txt:1)"
  [[nodiscard]] std::string describe() const;
};

// A value the user gave, and where: {"2.8", "--min-torch"} or {"2.8", "torchmigrate.toml:4"}.
struct TorchOverride {
  std::string value;
  std::string source;
};

// Whether a file of this name may hold a package's own pins (requirements*.txt,
// constraints*.txt, pyproject.toml, setup.cfg, setup.py, environment*.yml): a directory holding
// one that pins torch, or that defines a package, is a project (project.hpp).
bool is_pin_file_name(std::string_view file_name);

// Whether a file of this name describes an environment the project runs in (Dockerfile*,
// Containerfile*, *.dockerfile, tox.ini, .gitlab-ci.yml, meta.yaml): its pins count for the
// project whose directory holds it, without making that directory a project.
bool is_environment_file_name(std::string_view file_name);

// The torch pins of one file, chosen by its name and place (a workflow under .github/workflows
// is read for matrices); malformed content adds a note and is skipped. `referenced` receives the
// requirement files it installs (`-r FILE`), as written.
std::vector<TorchPin> read_torch_pins(const std::filesystem::path& file, std::vector<std::string>& notes,
                                      std::vector<std::string>* referenced = nullptr);

// Whether the file pins torch at all (any requirement naming it, bounded or not).
bool names_torch(const std::filesystem::path& file);

// Every file whose pins count for the project rooted at `root`: its own pin and environment
// files, and those in the folders below it where environments are conventionally described
// (.github/, docker/, ci/, recipe/, conda/, packaging/, tools/, scripts/..., three levels deep):
// Dockerfiles, conda files, CI YAML, install scripts, requirement lists. A stable order.
std::vector<std::filesystem::path> pin_sources(const std::filesystem::path& root);

// The range all `pins` admit together (see the top of this file).
TorchRange combine_pins(const std::vector<TorchPin>& pins);

// The range the project rooted at `root` pins itself; the default when nothing pins torch.
TorchRange project_torch_range(const std::filesystem::path& root);

}  // namespace torchmigrate::engine
