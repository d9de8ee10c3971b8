// SPDX-License-Identifier: MIT
// Stable hashes through OpenSSL, the same on every platform and build (unlike std::hash).
#pragma once

#include <string>
#include <string_view>

namespace torchmigrate::engine {

// Git's blob id of the data (`git hash-object`), for baselines and the result cache.
std::string content_hash(std::string_view data);

// SHA-256 in lowercase hex, for report fingerprints.
std::string sha256_hex(std::string_view data);

}  // namespace torchmigrate::engine
