// SPDX-License-Identifier: MIT
// `file://` URIs to paths and back (percent-encoding per RFC 3986).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace torchmigrate::lsp {

// The path of a `file:` URI; nullopt for other schemes (`untitled:`) or a malformed URI.
std::optional<std::filesystem::path> path_from_uri(std::string_view uri);
std::string uri_from_path(const std::filesystem::path& path);

}  // namespace torchmigrate::lsp
