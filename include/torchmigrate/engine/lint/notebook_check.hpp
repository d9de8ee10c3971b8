// SPDX-License-Identifier: MIT
// Jupyter notebooks in the engine: linting goes through Linter::lint (Language::Notebook);
// fixing fixes the cells as one Python module and writes back only the changed sources.
#pragma once

#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

namespace torchmigrate::engine {

// `file` holds the notebook's JSON; the outcome's text is the notebook's new JSON, and its
// findings point into that JSON. A malformed notebook is left unchanged (TM900).
FixOutcome fix_notebook(const Linter& linter, const SourceFile& file);

}  // namespace torchmigrate::engine
