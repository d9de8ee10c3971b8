// SPDX-License-Identifier: MIT
#include "torchmigrate/output/display_width.hpp"

#include <utf8proc.h>

namespace torchmigrate::output {

namespace {

// Calls `on(columns, byte)` for each character: its display width and its first byte.
template <typename On>
void each_character(std::string_view text, On on) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    utf8proc_int32_t code_point = -1;
    utf8proc_ssize_t length = utf8proc_iterate(bytes, left, &code_point);
    if (length <= 0) {  // an invalid byte: one column, as the replacement character it shows as
      on(size_t{1}, *bytes);
      length = 1;
    } else {
      on(static_cast<size_t>(utf8proc_charwidth(code_point)), *bytes);
    }
    bytes += length;
    left -= length;
  }
}

}  // namespace

size_t display_width(std::string_view text) {
  size_t width = 0;
  each_character(text, [&](size_t columns, utf8proc_uint8_t) { width += columns; });
  return width;
}

std::string blank_like(std::string_view text) {
  std::string blanks;
  each_character(text, [&](size_t columns, utf8proc_uint8_t first) {
    if (first == '\t') {
      blanks += '\t';
    } else {
      blanks.append(columns, ' ');
    }
  });
  return blanks;
}

}  // namespace torchmigrate::output
