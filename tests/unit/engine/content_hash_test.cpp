// SPDX-License-Identifier: MIT
// Content hashes are stored in baselines and caches: they must stay git's blob ids, XXH3 and the
// report fingerprints plain SHA-256, on every build.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/engine/run/content_hash.hpp"

using namespace torchmigrate::engine;

TEST_CASE("content_hash is git's blob id") {
  // `git hash-object` of the same bytes.
  CHECK(content_hash("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(content_hash("import torch\n") == "aaa328524fcb5dc345868d46422ba321f2ad9439");
  std::string with_nul("a\0b", 3);
  CHECK(content_hash(with_nul) != content_hash("ab"));
  // In pieces: the id of their concatenation.
  CHECK(content_hash({"import ", "", "torch\n"}) == "aaa328524fcb5dc345868d46422ba321f2ad9439");
  CHECK(content_hash({"a", std::string_view("\0", 1), "b"}) == content_hash(with_nul));
}

TEST_CASE("sha256_hex is SHA-256 in lowercase hex") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("cache_hash is XXH3's 128-bit hash in lowercase hex") {
  // xxHash's own test vector for empty input, in its canonical (big-endian) form.
  CHECK(cache_hash({}) == "99aa06d3014798d86001c324468d497f");
  CHECK(cache_hash({""}) == cache_hash({}));
  // In pieces: the hash of their concatenation; a NUL between pieces counts.
  CHECK(cache_hash({"import ", "", "torch\n"}) == cache_hash({"import torch\n"}));
  CHECK(cache_hash({"a", std::string_view("\0", 1), "b"}) != cache_hash({"ab"}));
  CHECK(cache_hash({"import torch\n"}).size() == 32);
}
