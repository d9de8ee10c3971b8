// SPDX-License-Identifier: MIT
// Stable hashes through OpenSSL, the same on every platform and build (unlike std::hash).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace torchmigrate::engine {

// Git's blob id of the data (`git hash-object`), for baselines and the result cache.
std::string content_hash(std::string_view data);
// The same id of the pieces one after the other, without copying them into one string.
std::string content_hash(std::initializer_list<std::string_view> pieces);

// SHA-256 in lowercase hex, for report fingerprints.
std::string sha256_hex(std::string_view data);

}  // namespace torchmigrate::engine
