// SPDX-License-Identifier: MIT
// A notebook as the one Python module it is at run time: its code cells in order, IPython
// syntax neutralised so the Python front can parse it, with the way back from offsets in that
// text to offsets in the notebook file and from fixed text to each cell's new source.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "torchmigrate/core/text_range.hpp"
#include "torchmigrate/notebook/notebook.hpp"

namespace torchmigrate::notebook {

// The comment line between two cells in the virtual source: it survives fixes (no check
// touches comments), so the fixed text splits back into cells on it.
inline constexpr std::string_view kCellBoundary = "#%% notebook cell boundary\n";

struct Chunk {
  uint32_t cell = 0;     // index into Notebook::cells
  TextRange range;       // the cell's text in the virtual source, added newline included
  bool added_newline = false;  // the cell's source did not end with "\n"
  // Lines (without "\n") rewritten so Python parses them: (virtual text, original text).
  std::vector<std::pair<std::string, std::string>> neutralised;
};

struct VirtualSource {
  std::string text;
  std::vector<Chunk> chunks;  // code cells only; cells starting with a `%%` cell magic are left out
};

// IPython line magics (`%time f()`), shell escapes (`!pip ...`) and help (`obj?`, `?obj`)
// become comments of the same length: every other byte keeps its offset.
VirtualSource build_virtual_source(const Notebook& notebook);

// The file offset of a virtual offset (a boundary line maps to the end of the cell before it).
uint32_t file_offset(const Notebook& notebook, const VirtualSource& source, uint32_t virtual_offset);

// Each chunk's new source after `fixed` replaced the virtual text, in chunk order, IPython
// lines restored; null when the cell boundaries did not survive.
std::optional<std::vector<std::string>> split_cells(const VirtualSource& source, std::string_view fixed);

}  // namespace torchmigrate::notebook
