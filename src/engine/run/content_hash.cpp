// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/content_hash.hpp"

// Debian's libmd (BSD message digests), linked statically: SHA-1 and SHA-256 only.
#include <sha1.h>
#include <sha2.h>
// Debian's libxxhash-dev, used as a header-only library: no library to load at start-up.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <initializer_list>

namespace torchmigrate::engine {
namespace {

std::string lowercase_hex(const unsigned char* bytes, size_t length) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (size_t i = 0; i < length; ++i) {
    hex.push_back(kHex[bytes[i] >> 4]);
    hex.push_back(kHex[bytes[i] & 0xf]);
  }
  return hex;
}
}  // namespace

std::string content_hash(std::string_view data) { return content_hash({data}); }

std::string content_hash(std::initializer_list<std::string_view> pieces) {
  // Git's blob id (`git hash-object`): SHA-1 of "blob <size>\0" and the data.
  size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string header = "blob " + std::to_string(size);
  header.push_back('\0');
  SHA1_CTX context;
  SHA1Init(&context);
  SHA1Update(&context, reinterpret_cast<const uint8_t*>(header.data()), header.size());
  for (std::string_view piece : pieces) {
    SHA1Update(&context, reinterpret_cast<const uint8_t*>(piece.data()), piece.size());
  }
  uint8_t digest[SHA1_DIGEST_LENGTH];
  SHA1Final(digest, &context);
  return lowercase_hex(digest, sizeof digest);
}

std::string cache_hash(std::initializer_list<std::string_view> pieces) {
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  for (std::string_view piece : pieces) XXH3_128bits_update(&state, piece.data(), piece.size());
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(&state));
  return lowercase_hex(canonical.digest, sizeof canonical.digest);
}

std::string sha256_hex(std::string_view data) {
  SHA2_CTX context;
  SHA256Init(&context);
  SHA256Update(&context, reinterpret_cast<const uint8_t*>(data.data()), data.size());
  uint8_t digest[SHA256_DIGEST_LENGTH];
  SHA256Final(digest, &context);
  return lowercase_hex(digest, sizeof digest);
}

}  // namespace torchmigrate::engine
