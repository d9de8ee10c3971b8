// SPDX-License-Identifier: MIT
// The identifier words of a text ([A-Za-z0-9_] runs), found 64 bytes at a time: the prefilter
// looks at every word of every file, and a byte-by-byte loop was most of its time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace torchmigrate::engine {

// Whether `c` is part of an identifier word for trigger matching.
constexpr bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

namespace detail {

#if defined(__SSE2__)
// Bit n set when byte n of the 64 at `data` is a word byte. Bytes from 0x80 compare as negative,
// so they are never letters or digits.
inline uint64_t word_mask(const char* data) {
  uint64_t mask = 0;
  for (int part = 0; part < 4; ++part) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * part));
    __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
    __m128i letter =
        _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
    __m128i word = _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(c, _mm_set1_epi8('_')));
    mask |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(word))) << (16 * part);
  }
  return mask;
}
#endif

}  // namespace detail

// Calls `found(begin, end)` for each word of `text` in order (offsets, `end` exclusive); it
// returns false to stop.
template <typename Found>
void for_each_word(std::string_view text, Found&& found) {
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t open = kNone;  // start of a word not yet ended
  size_t at = 0;
#if defined(__SSE2__)
  for (; at + 64 <= text.size(); at += 64) {
    uint64_t mask = detail::word_mask(text.data() + at);
    // A set bit where a byte differs from the one before it: a word starts or ends there.
    uint64_t edges = mask ^ ((mask << 1) | (open != kNone ? 1 : 0));
    while (edges != 0) {
      int bit = __builtin_ctzll(edges);
      edges &= edges - 1;
      if ((mask >> bit) & 1) {
        open = at + static_cast<size_t>(bit);
      } else {
        if (!found(open, at + static_cast<size_t>(bit))) return;
        open = kNone;
      }
    }
  }
#endif
  for (; at < text.size(); ++at) {
    bool word = is_word_byte(static_cast<unsigned char>(text[at]));
    if (word && open == kNone) {
      open = at;
    } else if (!word && open != kNone) {
      if (!found(open, at)) return;
      open = kNone;
    }
  }
  if (open != kNone) found(open, text.size());
}

}  // namespace torchmigrate::engine
