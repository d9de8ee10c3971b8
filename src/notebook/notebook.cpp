// SPDX-License-Identifier: MIT
#include "torchmigrate/notebook/notebook.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/notebook/json_scan.hpp"

namespace torchmigrate::notebook {
namespace {

// The structure this reader relies on, checked on the parsed document first so the scanner
// below only ever walks a valid nbformat 4 shape. Empty when the document is usable.
std::string shape_error(const nlohmann::json& document) {
  if (!document.is_object()) return "the top level is not a JSON object";
  auto format = document.find("nbformat");
  if (format == document.end() || !format->is_number_integer()) return "no integer `nbformat` field";
  if (*format != 4) return "nbformat " + format->dump() + " is not supported (nbformat 4 is)";
  auto cells = document.find("cells");
  if (cells == document.end() || !cells->is_array()) return "no `cells` array";
  for (size_t i = 0; i < cells->size(); ++i) {
    const nlohmann::json& cell = (*cells)[i];
    std::string where = "cell " + std::to_string(i + 1) + ": ";
    if (!cell.is_object()) return where + "not a JSON object";
    auto type = cell.find("cell_type");
    if (type == cell.end() || !type->is_string()) return where + "no string `cell_type`";
    auto source = cell.find("source");
    if (source == cell.end()) return where + "no `source`";
    if (source->is_array()) {
      if (!std::all_of(source->begin(), source->end(), [](const nlohmann::json& line) { return line.is_string(); })) {
        return where + "`source` holds a value that is not a string";
      }
    } else if (!source->is_string()) {
      return where + "`source` is neither a string nor a list of strings";
    }
  }
  return {};
}

}  // namespace

ParseResult parse(std::string_view json) {
  ParseResult result;
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& error) {
    result.error = error.what();
    return result;
  }
  result.error = shape_error(document);
  if (!result.error.empty()) return result;

  Notebook notebook;
  TextRange root = value_at(json, 0);
  TextRange cells = *member(json, root, "cells");
  uint32_t index = 0;
  for (TextRange object : elements(json, cells)) {
    Cell& cell = notebook.cells.emplace_back();
    cell.index = index++;
    TextRange type = *member(json, object, "cell_type");
    std::vector<uint32_t> unused;
    decode_string(json, type, cell.type, unused);
    cell.value = *member(json, object, "source");
    cell.is_array = json[cell.value.start] == '[';
    std::vector<TextRange> literals = cell.is_array ? elements(json, cell.value) : std::vector<TextRange>{cell.value};
    for (TextRange literal : literals) {
      SourcePiece& piece = cell.pieces.emplace_back();
      piece.literal = literal;
      decode_string(json, literal, piece.text, unused);
      decode_string(json, literal, cell.text, cell.offsets);
    }
    cell.offsets.push_back(literals.empty() ? cell.value.start + 1 : literals.back().end - 1);
  }
  result.notebook = std::move(notebook);
  return result;
}

std::optional<CellPosition> locate(const Notebook& notebook, uint32_t offset) {
  for (const Cell& cell : notebook.cells) {
    if (offset < cell.value.start || offset >= cell.value.end) continue;
    // The first decoded byte at or after the offset (offsets never decrease).
    auto it = std::lower_bound(cell.offsets.begin(), cell.offsets.end(), offset);
    if (it == cell.offsets.end()) --it;
    auto byte = static_cast<uint32_t>(it - cell.offsets.begin());
    LineColumn at = LineIndex(cell.text).location(byte, cell.text);
    return CellPosition{cell.index + 1, at.line, at.column};
  }
  return std::nullopt;
}

}  // namespace torchmigrate::notebook
