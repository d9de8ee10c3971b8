// SPDX-License-Identifier: MIT
// Questions about CMake files: does a file call `find_package(<Package> ...)`?
#pragma once

#include <string_view>

#include "torchmigrate/buildfiles/build_file.hpp"

namespace torchmigrate::buildfiles {

// `find_package(Torch REQUIRED)`: command names are case-insensitive, package names are not.
bool calls_find_package(const BuildFile& file, std::string_view package);

}  // namespace torchmigrate::buildfiles
