// SPDX-License-Identifier: MIT
// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and
// emoji, 0 for combining marks, 1 otherwise (Unicode's tables, through utf8proc), so that the
// full format's carets line up under what a terminal shows, as Ruff's do.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace torchmigrate::output {

// The columns of UTF-8 text; a byte that is not valid UTF-8 counts as one column.
size_t display_width(std::string_view text);

// Blanks that take the columns `text` takes, its tabs kept as tabs: what goes before a caret so
// that it lands under the character that follows `text` on the line above.
std::string blank_like(std::string_view text);

}  // namespace torchmigrate::output
