// SPDX-License-Identifier: MIT
// Paths made absolute against the working directory read once: std::filesystem::absolute asks
// the kernel for it on every call, which was a tenth of a warm run. torchmigrate never changes
// its working directory.
#pragma once

#include <filesystem>

namespace torchmigrate::engine {

// std::filesystem::absolute(path), without a system call for each path.
std::filesystem::path absolute_path(const std::filesystem::path& path);

}  // namespace torchmigrate::engine
