// SPDX-License-Identifier: MIT
// Writes new cell sources into a notebook's bytes, touching only the `source` values of the
// changed cells: indentation, key order, line endings, escaping of unchanged lines, outputs
// and metadata stay byte-identical.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "torchmigrate/notebook/notebook.hpp"

namespace torchmigrate::notebook {

// `changed`: (index into Notebook::cells, new source text), each cell at most once.
std::string rewrite_sources(std::string_view json, const Notebook& notebook,
                            std::vector<std::pair<uint32_t, std::string>> changed);

}  // namespace torchmigrate::notebook
