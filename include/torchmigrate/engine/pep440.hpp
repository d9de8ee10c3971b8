// SPDX-License-Identifier: MIT
// Just enough of PEP 440 / PEP 508 to read a project's pin on a package: the requirement's
// name and the lowest MAJOR.MINOR its version specifiers admit.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::engine {

struct Requirement {
  std::string name;        // normalised: lower case, runs of `-_.` become `-`
  std::string specifiers;  // `>=2.7,<2.9`, without extras, URL or environment marker
};

// Lower case with `-`, `_` and `.` runs folded to `-` (PEP 503).
std::string normalize_package_name(std::string_view name);

// Reads `name[extras] specifiers ; marker` (also the old `name (>=1.0)` form). nullopt when the
// text does not start with a package name. A direct reference (`name @ url`) has no specifiers.
std::optional<Requirement> parse_requirement(std::string_view text);

class SpecifierError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The lowest MAJOR.MINOR admitted by a comma-separated specifier set: `>=2.7,<2.9` -> 2.7,
// `==2.8.*` -> 2.8, `~=2.8.0` -> 2.8, `>2.7` -> 2.7 (2.7.1 is admitted). nullopt when there is no
// lower bound (`<2.9`, `!=2.7.0`, empty). Throws SpecifierError for text that is not a specifier.
std::optional<TorchVersion> lowest_admitted(std::string_view specifiers);

}  // namespace torchmigrate::engine
