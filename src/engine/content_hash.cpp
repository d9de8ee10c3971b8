// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/content_hash.hpp"

#include <openssl/evp.h>
// Debian's libxxhash-dev, used as a header-only library: no library to load at start-up.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <initializer_list>
#include <memory>
#include <stdexcept>

namespace torchmigrate::engine {
namespace {

// The algorithm fetched once: OpenSSL 3 looks a legacy EVP_sha1() up in its provider on every
// EVP_DigestInit_ex, which cost as much as hashing the cache's small keys.
const EVP_MD* fetched(const char* name) {
  EVP_MD* algorithm = EVP_MD_fetch(nullptr, name, nullptr);
  if (algorithm == nullptr) throw std::runtime_error(std::string("OpenSSL has no ") + name);
  return algorithm;  // kept for the process
}

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
// The lowercase hex digest of the header and the pieces, one after the other. One context per
// thread, reset for each digest.
std::string hex_digest(const EVP_MD* algorithm, std::string_view header,
                       std::initializer_list<std::string_view> pieces) {
  struct ContextDeleter {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
  };
  thread_local std::unique_ptr<EVP_MD_CTX, ContextDeleter> context(EVP_MD_CTX_new());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  bool ok = context != nullptr && EVP_DigestInit_ex2(context.get(), algorithm, nullptr) == 1;
  ok = ok && EVP_DigestUpdate(context.get(), header.data(), header.size()) == 1;
  for (std::string_view piece : pieces) ok = ok && EVP_DigestUpdate(context.get(), piece.data(), piece.size()) == 1;
  ok = ok && EVP_DigestFinal_ex(context.get(), digest, &length) == 1;
  if (!ok) throw std::runtime_error(std::string("OpenSSL could not compute ") + EVP_MD_get0_name(algorithm));
  return lowercase_hex(digest, length);
}

}  // namespace

std::string content_hash(std::string_view data) { return content_hash({data}); }

std::string content_hash(std::initializer_list<std::string_view> pieces) {
  // Git's blob id (`git hash-object`): SHA-1 of "blob <size>\0" and the data.
  size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string header = "blob " + std::to_string(size);
  header.push_back('\0');
  static const EVP_MD* sha1 = fetched("SHA1");
  return hex_digest(sha1, header, pieces);
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
  static const EVP_MD* sha256 = fetched("SHA256");
  return hex_digest(sha256, {}, {data});
}

}  // namespace torchmigrate::engine
