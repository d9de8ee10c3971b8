// SPDX-License-Identifier: MIT
#include "torchmigrate/notebook/json_scan.hpp"

#include <cstdio>

namespace torchmigrate::notebook {
namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

uint32_t skip_blanks(std::string_view json, uint32_t at) {
  while (at < json.size() && blank(json[at])) ++at;
  return at;
}

// One past the closing quote of the literal opening at `at`.
uint32_t string_end(std::string_view json, uint32_t at) {
  for (uint32_t i = at + 1; i < json.size(); ++i) {
    if (json[i] == '\\') {
      ++i;
    } else if (json[i] == '"') {
      return i + 1;
    }
  }
  return static_cast<uint32_t>(json.size());
}

// One past the end of the value starting at `at` (the document is known to be valid).
uint32_t value_end(std::string_view json, uint32_t at) {
  if (at >= json.size()) return at;
  char first = json[at];
  if (first == '"') return string_end(json, at);
  if (first == '{' || first == '[') {
    int depth = 0;
    for (uint32_t i = at; i < json.size(); ++i) {
      char c = json[i];
      if (c == '"') {
        i = string_end(json, i) - 1;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return static_cast<uint32_t>(json.size());
  }
  uint32_t end = at;
  while (end < json.size() && !blank(json[end]) && json[end] != ',' && json[end] != '}' && json[end] != ']') ++end;
  return end;
}

void append_utf8(uint32_t code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

uint32_t hex4(std::string_view json, uint32_t at) {
  uint32_t value = 0;
  for (uint32_t i = at; i < at + 4 && i < json.size(); ++i) {
    char c = json[i];
    value = value * 16 + static_cast<uint32_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return value;
}

}  // namespace

TextRange value_at(std::string_view json, uint32_t from) {
  uint32_t start = skip_blanks(json, from);
  return {start, value_end(json, start)};
}

std::vector<TextRange> elements(std::string_view json, TextRange array) {
  std::vector<TextRange> out;
  uint32_t at = skip_blanks(json, array.start + 1);
  while (at < array.end && json[at] != ']') {
    TextRange value = value_at(json, at);
    out.push_back(value);
    at = skip_blanks(json, value.end);
    if (at < array.end && json[at] == ',') at = skip_blanks(json, at + 1);
  }
  return out;
}

std::optional<TextRange> member(std::string_view json, TextRange object, std::string_view key) {
  uint32_t at = skip_blanks(json, object.start + 1);
  while (at < object.end && json[at] == '"') {
    TextRange name{at, string_end(json, at)};
    std::string decoded;
    std::vector<uint32_t> unused;
    decode_string(json, name, decoded, unused);
    at = skip_blanks(json, name.end);
    TextRange value = value_at(json, at + 1);  // past ':'
    if (decoded == key) return value;
    at = skip_blanks(json, value.end);
    if (at < object.end && json[at] == ',') at = skip_blanks(json, at + 1);
  }
  return std::nullopt;
}

void decode_string(std::string_view json, TextRange literal, std::string& out, std::vector<uint32_t>& offsets) {
  uint32_t last = literal.end - 1;  // the closing quote
  for (uint32_t i = literal.start + 1; i < last;) {
    uint32_t from = i;
    size_t before = out.size();
    if (json[i] != '\\') {
      out += json[i++];
    } else {
      char kind = json[i + 1];
      i += 2;
      switch (kind) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          uint32_t code = hex4(json, i);
          i += 4;
          if (code >= 0xD800 && code < 0xDC00 && i + 6 <= last && json[i] == '\\' && json[i + 1] == 'u') {
            uint32_t low = hex4(json, i + 2);
            if (low >= 0xDC00 && low < 0xE000) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
              i += 6;
            }
          }
          append_utf8(code, out);
          break;
        }
        default: out += kind; break;  // \" \\ \/
      }
    }
    offsets.insert(offsets.end(), out.size() - before, from);
  }
}

std::string encode_string(std::string_view text, bool ascii_only) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    switch (byte) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    char escape[16];
    if (byte < 0x20) {
      std::snprintf(escape, sizeof escape, "\\u%04x", byte);
      out += escape;
    } else if (byte >= 0x80 && ascii_only) {
      // Decode one UTF-8 sequence (the text came from valid JSON, so it is well formed).
      int length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2;
      uint32_t code = byte & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F);
      for (int k = 1; k < length && i + 1 < text.size(); ++k) code = (code << 6) | (text[++i] & 0x3F);
      if (code >= 0x10000) {
        code -= 0x10000;
        std::snprintf(escape, sizeof escape, "\\u%04x\\u%04x", 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF));
      } else {
        std::snprintf(escape, sizeof escape, "\\u%04x", code);
      }
      out += escape;
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out + "\"";
}

}  // namespace torchmigrate::notebook
