// SPDX-License-Identifier: MIT
// Substring search for passes over whole files. std::string_view::find stops at every byte equal
// to the needle's first one and compares there, which is slow when that byte is a common letter
// (`environ`, `onnx`); glibc's memmem skips ahead by pairs of bytes.
#pragma once

#include <string.h>

#include <cstddef>
#include <string_view>

namespace torchmigrate {

// Where `needle` first occurs in `text` at or after `from`; npos when it does not.
inline size_t find_text(std::string_view text, std::string_view needle, size_t from = 0) {
  if (from > text.size()) return std::string_view::npos;
  const void* found = memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  return found == nullptr ? std::string_view::npos : static_cast<const char*>(found) - text.data();
}

inline bool contains_text(std::string_view text, std::string_view needle) {
  return find_text(text, needle) != std::string_view::npos;
}

}  // namespace torchmigrate
