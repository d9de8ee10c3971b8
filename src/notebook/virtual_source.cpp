// SPDX-License-Identifier: MIT
#include "torchmigrate/notebook/virtual_source.hpp"

#include <algorithm>

namespace torchmigrate::notebook {
namespace {

bool is_cell_magic(std::string_view text) {
  size_t first = text.find_first_not_of(" \t");
  return first != std::string_view::npos && text.substr(first, 2) == "%%";
}

// The position of the byte to turn into `#`, or npos when the line is plain Python.
size_t ipython_marker(std::string_view line) {
  size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return first;
  char c = line[first];
  bool next_is_equals = first + 1 < line.size() && line[first + 1] == '=';
  if ((c == '%' || c == '!') && !next_is_equals) return first;
  if (c == '?') return first;
  size_t last = line.find_last_not_of(" \t\r");
  // `obj?` and `obj??` (help); Python has no trailing `?` outside strings and comments.
  if (last != std::string_view::npos && line[last] == '?' && line.find('#') == std::string_view::npos && line.find('"') == std::string_view::npos &&
      line.find('\'') == std::string_view::npos) {
    return first;
  }
  return std::string_view::npos;
}

}  // namespace

VirtualSource build_virtual_source(const Notebook& notebook) {
  VirtualSource source;
  for (uint32_t i = 0; i < notebook.cells.size(); ++i) {
    const Cell& cell = notebook.cells[i];
    if (cell.type != "code" || is_cell_magic(cell.text)) continue;
    if (!source.chunks.empty()) source.text += kCellBoundary;
    Chunk& chunk = source.chunks.emplace_back();
    chunk.cell = i;
    chunk.range.start = static_cast<uint32_t>(source.text.size());
    for (size_t at = 0; at < cell.text.size();) {
      size_t end = cell.text.find('\n', at);
      size_t stop = end == std::string::npos ? cell.text.size() : end;
      std::string line = cell.text.substr(at, stop - at);
      size_t marker = ipython_marker(line);
      if (marker != std::string::npos) {
        std::string original = line;
        line[marker] = '#';
        chunk.neutralised.emplace_back(line, std::move(original));
      }
      source.text += line;
      if (end != std::string::npos) source.text += '\n';
      at = stop + 1;
    }
    if (cell.text.empty() || cell.text.back() != '\n') {
      source.text += '\n';
      chunk.added_newline = true;
    }
    chunk.range.end = static_cast<uint32_t>(source.text.size());
  }
  return source;
}

uint32_t file_offset(const Notebook& notebook, const VirtualSource& source, uint32_t virtual_offset) {
  if (source.chunks.empty()) return 0;
  // The last chunk starting at or before the offset.
  auto it = std::upper_bound(source.chunks.begin(), source.chunks.end(), virtual_offset,
                             [](uint32_t offset, const Chunk& chunk) { return offset < chunk.range.start; });
  if (it != source.chunks.begin()) --it;
  const Cell& cell = notebook.cells[it->cell];
  uint32_t local = virtual_offset - std::min(virtual_offset, it->range.start);
  return local < cell.text.size() ? cell.offsets[local] : cell.offsets.back();
}

std::optional<std::vector<std::string>> split_cells(const VirtualSource& source, std::string_view fixed) {
  std::vector<std::string> cells;
  size_t at = 0;
  for (;;) {
    size_t boundary = fixed.find(kCellBoundary, at);
    // Only a whole line counts.
    while (boundary != std::string_view::npos && boundary > 0 && fixed[boundary - 1] != '\n') {
      boundary = fixed.find(kCellBoundary, boundary + 1);
    }
    cells.emplace_back(fixed.substr(at, boundary == std::string_view::npos ? std::string_view::npos : boundary - at));
    if (boundary == std::string_view::npos) break;
    at = boundary + kCellBoundary.size();
  }
  if (cells.size() != source.chunks.size()) return std::nullopt;
  for (size_t i = 0; i < cells.size(); ++i) {
    const Chunk& chunk = source.chunks[i];
    std::string& text = cells[i];
    if (chunk.added_newline && !text.empty() && text.back() == '\n') text.pop_back();
    if (chunk.neutralised.empty()) continue;
    std::string restored;
    size_t pending = 0;
    for (size_t line_start = 0; line_start <= text.size();) {
      size_t end = text.find('\n', line_start);
      size_t stop = end == std::string::npos ? text.size() : end;
      std::string_view line(text.data() + line_start, stop - line_start);
      if (pending < chunk.neutralised.size() && line == chunk.neutralised[pending].first) {
        restored += chunk.neutralised[pending++].second;
      } else {
        restored += line;
      }
      if (end == std::string::npos) break;
      restored += '\n';
      line_start = end + 1;
    }
    text = std::move(restored);
  }
  return cells;
}

}  // namespace torchmigrate::notebook
