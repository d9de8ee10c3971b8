// SPDX-License-Identifier: MIT
// Conversions between the engine's byte offsets (UTF-8) and LSP positions (line, UTF-16 code
// unit). Nothing outside lsp/ sees UTF-16.
#pragma once

#include <cstdint>
#include <string_view>

#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/core/text_range.hpp"
#include "torchmigrate/lsp/protocol.hpp"

namespace torchmigrate::lsp {

// Borrows `text` and its line index; both must outlive the mapper.
class PositionMapper {
 public:
  PositionMapper(std::string_view text, const LineIndex& lines) : text_(text), lines_(lines) {}
  explicit PositionMapper(const SourceFile& file) : PositionMapper(file.text(), file.lines()) {}

  // An offset inside a multi-byte character maps to the start of that character.
  [[nodiscard]] Position position(uint32_t offset) const;
  [[nodiscard]] Range range(TextRange range) const;
  // Past the end of a line: the end of that line (before its terminator); past the last line:
  // the end of the text; inside a surrogate pair: the start of that character.
  [[nodiscard]] uint32_t offset(Position position) const;
  [[nodiscard]] TextRange text_range(Range range) const;

 private:
  std::string_view text_;
  const LineIndex& lines_;
};

// Length in bytes and in UTF-16 units of the character starting at `text[at]`. Invalid UTF-8
// counts as one byte and one unit per byte (what editors show as U+FFFD).
struct CharacterSize {
  uint32_t bytes = 1;
  uint32_t utf16_units = 1;
};
CharacterSize character_size(std::string_view text, size_t at);

}  // namespace torchmigrate::lsp
