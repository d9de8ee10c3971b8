// SPDX-License-Identifier: MIT
#include "torchmigrate/output/notebook_positions.hpp"

namespace torchmigrate::output {

NotebookPositions::NotebookPositions(const SourceFile& file) {
  if (file.language() == Language::Notebook) notebook_ = notebook::parse(file.text()).notebook;
}

std::optional<notebook::CellPosition> NotebookPositions::at(uint32_t offset) const {
  if (!notebook_) return std::nullopt;
  return notebook::locate(*notebook_, offset);
}

std::optional<std::string_view> NotebookPositions::cell_line(uint32_t offset) const {
  std::optional<notebook::CellPosition> position = at(offset);
  if (!position || position->cell == 0 || position->cell > notebook_->cells.size()) return std::nullopt;
  std::string_view text = notebook_->cells[position->cell - 1].text;
  for (uint32_t line = 1; line < position->line; ++line) {
    size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return std::nullopt;
    text.remove_prefix(newline + 1);
  }
  text = text.substr(0, text.find('\n'));
  if (text.ends_with('\r')) text.remove_suffix(1);
  return text;
}

const NotebookPositions& positions_of(const std::shared_ptr<const SourceFile>& file) {
  // Holding the file keeps its address from being reused by another one.
  thread_local std::shared_ptr<const SourceFile> cached_file;
  thread_local std::optional<NotebookPositions> cached;
  if (cached_file != file || !cached) {
    cached_file = file;
    cached.emplace(*file);
  }
  return *cached;
}

void write_position(std::ostream& out, const SourceFile& file, const NotebookPositions& positions, uint32_t offset) {
  if (std::optional<notebook::CellPosition> cell = positions.at(offset)) {
    out << "cell " << cell->cell << ':' << cell->line << ':' << cell->column;
    return;
  }
  LineColumn at = file.location(offset);
  out << at.line << ':' << at.column;
}

}  // namespace torchmigrate::output
