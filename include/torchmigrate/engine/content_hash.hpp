// SPDX-License-Identifier: MIT
// A stable content hash (SHA-1 through libgit2) for baselines and the result cache: the same
// on every platform and build, unlike std::hash.
#pragma once

#include <string>
#include <string_view>

namespace torchmigrate::engine {

std::string content_hash(std::string_view data);

}  // namespace torchmigrate::engine
