// SPDX-License-Identifier: MIT
// A Jupyter notebook (nbformat 4) read from its JSON bytes: each cell's source decoded, with
// the byte offset in the file of every decoded byte, so findings can point back into the JSON
// and a fix can rewrite one cell's string literals and nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::notebook {

// One JSON string literal of a cell's `source` (one line, or the whole source).
struct SourcePiece {
  TextRange literal;  // the literal in the file, quotes included
  std::string text;   // decoded
};

struct Cell {
  uint32_t index = 0;  // 0-based among all cells (markdown and raw included)
  std::string type;    // "code", "markdown", "raw"
  TextRange value;     // the `source` value in the file: an array, or one string
  bool is_array = true;
  std::vector<SourcePiece> pieces;
  std::string text;    // the decoded source: the pieces joined
  // File offset of each byte of `text`, plus one entry past the end (the closing quote of
  // the last literal, or just after `[` for an empty array).
  std::vector<uint32_t> offsets;
};

struct Notebook {
  std::vector<Cell> cells;
};

struct ParseResult {
  std::optional<Notebook> notebook;
  std::string error;  // why the bytes are not an nbformat 4 notebook
};

ParseResult parse(std::string_view json);

// Where a file offset falls in a notebook: 1-based cell number (counting every cell, as
// Jupyter shows them), and 1-based line and column (code points) within the cell's source.
struct CellPosition {
  uint32_t cell = 1;
  uint32_t line = 1;
  uint32_t column = 1;
};

// Null when the offset lies outside every cell's source (the notebook's own structure).
std::optional<CellPosition> locate(const Notebook& notebook, uint32_t offset);

}  // namespace torchmigrate::notebook
