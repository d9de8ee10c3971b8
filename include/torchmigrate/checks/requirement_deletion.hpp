// SPDX-License-Identifier: MIT
// The edit that deletes a requirement found by buildfiles::find_requirements, for fixes that
// drop a package: its whole line in a requirement file, environment.yml or a TOML array when the
// line holds nothing else, or its word in a `pip install` / `conda install` command that installs other
// packages too (deleting the only one would leave a command that fails).
#pragma once

#include <optional>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/core/fix.hpp"

namespace torchmigrate::checks {

// nullopt where the requirement cannot be deleted alone (a line with other code, a `setup.py`
// or `setup.cfg` entry, the only package of a command).
std::optional<Edit> requirement_deletion(const buildfiles::BuildFile& file, const buildfiles::Requirement& requirement);

}  // namespace torchmigrate::checks
