// SPDX-License-Identifier: MIT
// Paths made absolute against the working directory read once: std::filesystem::absolute asks
// the kernel for it on every call, which was a tenth of a warm run. torchmigrate never changes
// its working directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace torchmigrate::engine {

// std::filesystem::absolute(path), without a system call for each path.
std::filesystem::path absolute_path(const std::filesystem::path& path);

// absolute_path(path).lexically_normal(), without a trailing separator (`.` gives the working
// directory itself), by string operations alone, for what a walk yields: a
// relative path of plain components after any leading `./`. nullopt for any other path (then
// std::filesystem must do it: building a path object splits it into components, a list of
// paths, which cost a warm run a tenth of its time).
std::optional<std::string> plain_absolute(std::string_view path);

// The directory part of a path as std::filesystem::path::parent_path() gives it, for a path
// without a trailing separator: "a/b" -> "a", "a" -> "", "/a" -> "/".
std::string_view parent_of(std::string_view path);

}  // namespace torchmigrate::engine
