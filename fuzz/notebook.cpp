// SPDX-License-Identifier: MIT
// The notebook reader (src/notebook): a JSON document read as nbformat 4, every decoded byte
// mapped to a file offset inside the document, every cell offset located; then the notebook is
// linted and fixed with every rule, which rewrites cell sources in the JSON.
#include <string>

#include "lint_support.hpp"
#include "torchmigrate/notebook/notebook.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::bytes(data, size));
  const notebook::ParseResult parsed = notebook::parse(text);
  if (!parsed.notebook) return 0;
  for (const notebook::Cell& cell : parsed.notebook->cells) {
    FUZZ_REQUIRE(cell.value.start <= cell.value.end && cell.value.end <= text.size());
    FUZZ_REQUIRE(cell.offsets.size() == cell.text.size() + 1);
    for (uint32_t offset : cell.offsets) FUZZ_REQUIRE(offset <= text.size());
    for (const notebook::SourcePiece& piece : cell.pieces) {
      FUZZ_REQUIRE(piece.literal.start <= piece.literal.end && piece.literal.end <= text.size());
    }
    for (size_t i = 0; i < cell.text.size(); ++i) {
      const std::optional<notebook::CellPosition> where = notebook::locate(*parsed.notebook, cell.offsets[i]);
      FUZZ_REQUIRE(where.has_value());
    }
  }
  const std::optional<SourceFile> file = fuzz::decoded_file("fuzz.ipynb", text, Language::Notebook);
  if (!file) return 0;
  const engine::FixOutcome outcome = fuzz::lint_and_fix(*file);
  if (!outcome.applied.empty()) FUZZ_REQUIRE(notebook::parse(outcome.text).notebook.has_value());
  return 0;
}
