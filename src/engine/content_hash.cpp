// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/content_hash.hpp"

#include <openssl/evp.h>

#include <initializer_list>
#include <stdexcept>

namespace torchmigrate::engine {
namespace {

// The lowercase hex digest of the header and the pieces, one after the other.
std::string hex_digest(const EVP_MD* algorithm, std::string_view header,
                       std::initializer_list<std::string_view> pieces) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  bool ok = context != nullptr && EVP_DigestInit_ex(context, algorithm, nullptr) == 1;
  ok = ok && EVP_DigestUpdate(context, header.data(), header.size()) == 1;
  for (std::string_view piece : pieces) ok = ok && EVP_DigestUpdate(context, piece.data(), piece.size()) == 1;
  ok = ok && EVP_DigestFinal_ex(context, digest, &length) == 1;
  EVP_MD_CTX_free(context);
  if (!ok) throw std::runtime_error(std::string("OpenSSL could not compute ") + EVP_MD_get0_name(algorithm));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
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
  return hex_digest(EVP_sha1(), header, pieces);
}

std::string sha256_hex(std::string_view data) { return hex_digest(EVP_sha256(), {}, {data}); }

}  // namespace torchmigrate::engine
