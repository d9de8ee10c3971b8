// SPDX-License-Identifier: MIT
// Stable hashes, the same on every platform and build (unlike std::hash): git's SHA-1 blob id
// and SHA-256 (libmd) for what is kept or compared outside torchmigrate (baselines,
// report fingerprints), xxHash's XXH3 for the result cache's keys.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace torchmigrate::engine {

// Git's blob id of the data (`git hash-object`), for baselines and shard fingerprints.
std::string content_hash(std::string_view data);
// The same id of the pieces one after the other, without copying them into one string.
std::string content_hash(std::initializer_list<std::string_view> pieces);

// XXH3's 128-bit hash of the pieces one after the other, in lowercase hex (32 digits): the
// result cache's keys, which only this program reads. A tenth of SHA-1's cost on every file's
// text, where SHA-1 was most of what writing the cache added to a run.
std::string cache_hash(std::initializer_list<std::string_view> pieces);

// SHA-256 in lowercase hex, for report fingerprints.
std::string sha256_hex(std::string_view data);

}  // namespace torchmigrate::engine
