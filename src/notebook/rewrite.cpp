// SPDX-License-Identifier: MIT
#include "torchmigrate/notebook/rewrite.hpp"

#include <algorithm>

#include "torchmigrate/notebook/json_scan.hpp"

namespace torchmigrate::notebook {
namespace {

// Jupyter stores a source as its lines, each keeping its "\n".
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    size_t stop = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(at, stop - at));
    at = stop;
  }
  return lines;
}

// A file written with ensure_ascii (only \u escapes, no raw UTF-8) keeps that style.
bool ascii_only(std::string_view json) {
  bool raw = std::any_of(json.begin(), json.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  return !raw && json.find("\\u") != std::string_view::npos;
}

struct Layout {
  std::string open, separator, close;
};

// The whitespace around the elements of a cell's source array, taken from the cell itself
// when it has elements, else from the document's own indentation.
Layout layout_of(std::string_view json, const Cell& cell) {
  const std::vector<SourcePiece>& pieces = cell.pieces;
  if (!pieces.empty()) {
    Layout layout;
    layout.open = json.substr(cell.value.start + 1, pieces.front().literal.start - cell.value.start - 1);
    layout.close = json.substr(pieces.back().literal.end, cell.value.end - 1 - pieces.back().literal.end);
    layout.separator = pieces.size() > 1 ? std::string(json.substr(pieces[0].literal.end,
                                                                   pieces[1].literal.start - pieces[0].literal.end))
                                         : "," + layout.open;
    return layout;
  }
  std::string eol = json.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  size_t line_start = json.rfind('\n', cell.value.start);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  std::string_view line = json.substr(line_start);
  std::string key_indent(line.substr(0, line.find_first_not_of(" \t")));
  size_t second = json.find('\n');
  std::string_view next = second == std::string_view::npos ? std::string_view() : json.substr(second + 1);
  std::string unit(next.substr(0, next.find_first_not_of(" \t")));
  if (unit.empty()) return {"", ", ", ""};  // a one-line document stays on one line
  return {eol + key_indent + unit, "," + eol + key_indent + unit, eol + key_indent};
}

std::string encode_source(std::string_view json, const Cell& cell, std::string_view text, bool ascii) {
  if (!cell.is_array) return encode_string(text, ascii);
  std::vector<std::string_view> lines = split_lines(text);
  if (lines.empty()) return "[]";
  Layout layout = layout_of(json, cell);
  std::string out = "[" + layout.open;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += layout.separator;
    // An unchanged line keeps its literal byte for byte, escapes and all.
    auto same = std::find_if(cell.pieces.begin(), cell.pieces.end(),
                             [&](const SourcePiece& piece) { return piece.text == lines[i]; });
    out += same != cell.pieces.end() ? std::string(json.substr(same->literal.start, same->literal.length()))
                                     : encode_string(lines[i], ascii);
  }
  return out + layout.close + "]";
}

}  // namespace

std::string rewrite_sources(std::string_view json, const Notebook& notebook,
                            std::vector<std::pair<uint32_t, std::string>> changed) {
  bool ascii = ascii_only(json);
  // From the end, so earlier offsets stay valid.
  std::sort(changed.begin(), changed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out(json);
  for (const auto& [index, text] : changed) {
    const Cell& cell = notebook.cells.at(index);
    out.replace(cell.value.start, cell.value.length(), encode_source(json, cell, text, ascii));
  }
  return out;
}

}  // namespace torchmigrate::notebook
