// SPDX-License-Identifier: MIT
// Byte positions inside a JSON document that nlohmann_json has already accepted: the values
// of object members and array elements, and string literals decoded with the file offset of
// every decoded byte. nlohmann_json (3.11) keeps no positions, which a notebook fix needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::notebook {

// The value starting at the first non-blank byte at or after `from`.
TextRange value_at(std::string_view json, uint32_t from);
// The value of `key` in the object `object`; null when absent.
std::optional<TextRange> member(std::string_view json, TextRange object, std::string_view key);
// The elements of the array `array`, in order.
std::vector<TextRange> elements(std::string_view json, TextRange array);
// Appends the decoded bytes of the string literal `literal` (quotes included) to `out`, and
// for each byte the offset of the character or escape it came from to `offsets`.
void decode_string(std::string_view json, TextRange literal, std::string& out, std::vector<uint32_t>& offsets);
// `text` as a JSON string literal the way Jupyter writes one: quotes, backslashes and control
// characters escaped; other characters raw, or as \u escapes when `ascii_only`.
std::string encode_string(std::string_view text, bool ascii_only);

}  // namespace torchmigrate::notebook
