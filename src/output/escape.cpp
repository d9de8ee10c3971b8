// SPDX-License-Identifier: MIT
#include "torchmigrate/output/escape.hpp"

#include <cstdint>

namespace torchmigrate::output {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_byte_escape(std::string& out, unsigned char byte) {
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

// Length of the well-formed UTF-8 sequence at `i` and its code point, or 0 when it is not one.
size_t decode_utf8(std::string_view text, size_t i, uint32_t& code_point) {
  auto byte = [&](size_t at) { return static_cast<unsigned char>(text[at]); };
  unsigned char lead = byte(i);
  size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead <= 0xDF ? 2 : 0;
  if (lead >= 0xF5 || length == 0 || i + length > text.size()) return 0;
  code_point = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  bool overlong = (length == 3 && code_point < 0x800) || (length == 4 && code_point < 0x10000);
  bool invalid = code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF);
  return overlong || invalid ? 0 : length;
}

// C1 controls, line/paragraph separators and the bidirectional embedding, override and isolate
// controls: invisible, yet they break lines or reorder what a reader sees.
bool is_hidden_control(uint32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x200E || code_point == 0x200F ||
         (code_point >= 0x2028 && code_point <= 0x202E) || (code_point >= 0x2066 && code_point <= 0x2069);
}

}  // namespace

std::string escape_control(std::string_view text, bool keep_tabs) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += keep_tabs ? "\t" : "\\t";
      } else if (c < 0x20 || c == 0x7F) {
        append_byte_escape(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    uint32_t code_point = 0;
    size_t length = decode_utf8(text, i, code_point);
    if (length == 0) {
      append_byte_escape(out, c);
      ++i;
      continue;
    }
    if (is_hidden_control(code_point)) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code_point >> shift) & 0xF];
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string replace_characters(std::string_view text, std::initializer_list<CharacterReplacement> table) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const CharacterReplacement* found = nullptr;
    for (const CharacterReplacement& replacement : table) {
      if (replacement.from == c) found = &replacement;
    }
    if (found != nullptr) {
      out += found->to;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace torchmigrate::output
