// SPDX-License-Identifier: MIT
// The block-wise word scan finds exactly the words a byte-by-byte reading finds, wherever they
// fall against its 64-byte blocks.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "torchmigrate/engine/lint/word_scan.hpp"

using namespace torchmigrate::engine;

namespace {

using Words = std::vector<std::pair<size_t, size_t>>;

Words by_bytes(std::string_view text) {
  Words words;
  for (size_t at = 0; at < text.size();) {
    if (!is_word_byte(static_cast<unsigned char>(text[at]))) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) ++end;
    words.emplace_back(at, end);
    at = end;
  }
  return words;
}

Words scanned(std::string_view text) {
  Words words;
  for_each_word(text, [&](size_t begin, size_t end) {
    words.emplace_back(begin, end);
    return true;
  });
  return words;
}

}  // namespace

TEST_CASE("for_each_word finds the words a byte-by-byte reading finds") {
  // Every byte value, word runs across block edges, and texts of every length up to three blocks.
  std::string all_bytes;
  for (int c = 0; c < 256; ++c) all_bytes += static_cast<char>(c);
  CHECK(scanned(all_bytes) == by_bytes(all_bytes));
  std::string long_word(200, 'a');
  CHECK(scanned(long_word) == Words{{0, 200}});
  std::mt19937 random(7);
  const std::string alphabet = "aZ_9 .\n(\x80\xff@[`{/:";
  for (size_t length = 0; length <= 192; ++length) {
    for (int round = 0; round < 20; ++round) {
      std::string text;
      for (size_t i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
      INFO(length);
      CHECK(scanned(text) == by_bytes(text));
    }
  }
}

TEST_CASE("for_each_word stops when told to") {
  std::string text = "one two three " + std::string(100, 'x') + " four";
  size_t seen = 0;
  for_each_word(text, [&](size_t, size_t) { return ++seen < 2; });
  CHECK(seen == 2);
}
