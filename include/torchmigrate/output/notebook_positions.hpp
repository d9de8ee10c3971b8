// SPDX-License-Identifier: MIT
// Cell positions for the formats that show where a finding is inside a notebook (concise,
// json): built once per file, empty for every other kind of file.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <ostream>

#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/notebook/notebook.hpp"

namespace torchmigrate::output {

class NotebookPositions {
 public:
  explicit NotebookPositions(const SourceFile& file);
  // Null for a file that is not a notebook, or an offset outside every cell.
  [[nodiscard]] std::optional<notebook::CellPosition> at(uint32_t offset) const;
  // The line of the cell's source that holds `offset` (without its line break); null as for `at`.
  [[nodiscard]] std::optional<std::string_view> cell_line(uint32_t offset) const;

 private:
  std::optional<notebook::Notebook> notebook_;
};

// The positions of the file last asked for on this thread, built again for another file:
// per-finding writers (json, json-lines) get them without parsing a notebook per finding.
const NotebookPositions& positions_of(const std::shared_ptr<const SourceFile>& file);

// `cell N:line:col` (Ruff's layout) inside a notebook's cell, else `line:col` of the file.
void write_position(std::ostream& out, const SourceFile& file, const NotebookPositions& positions, uint32_t offset);

}  // namespace torchmigrate::output
