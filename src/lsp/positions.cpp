// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/positions.hpp"

#include <algorithm>

namespace torchmigrate::lsp {

CharacterSize character_size(std::string_view text, size_t at) {
  auto byte = static_cast<unsigned char>(text[at]);
  uint32_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
  if (length <= 1 || at + length > text.size()) return {1, 1};
  for (uint32_t i = 1; i < length; ++i) {
    if ((static_cast<unsigned char>(text[at + i]) & 0xC0) != 0x80) return {1, 1};
  }
  // Characters beyond the Basic Multilingual Plane take a surrogate pair.
  return {length, length == 4 ? 2u : 1u};
}

Position PositionMapper::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  uint32_t line = lines_.line_of(offset);
  uint32_t units = 0;
  for (size_t at = lines_.line_start(line); at < offset;) {
    CharacterSize size = character_size(text_, at);
    if (at + size.bytes > offset) break;
    at += size.bytes;
    units += size.utf16_units;
  }
  return {line, units};
}

Range PositionMapper::range(TextRange range) const { return {position(range.start), position(range.end)}; }

uint32_t PositionMapper::offset(Position position) const {
  if (position.line >= lines_.line_count()) return static_cast<uint32_t>(text_.size());
  TextRange line = lines_.line_range(position.line, text_);
  uint32_t units = 0;
  uint32_t at = line.start;
  while (at < line.end && units < position.character) {
    CharacterSize size = character_size(text_, at);
    if (units + size.utf16_units > position.character) break;
    units += size.utf16_units;
    at += size.bytes;
  }
  return at;
}

TextRange PositionMapper::text_range(Range range) const {
  uint32_t start = offset(range.start);
  return {start, std::max(start, offset(range.end))};
}

}  // namespace torchmigrate::lsp
