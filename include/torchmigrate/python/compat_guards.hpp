// SPDX-License-Identifier: MIT
// Recognises compatibility code that already handles both torch versions, which no rule may
// flag: `try/except (ImportError, AttributeError)`, `hasattr(...)` guards and torch version
// comparisons.
#pragma once

#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

// True when `node` sits in a try statement that catches ImportError/AttributeError (in its
// body or its handlers), or in any branch of an `if`/conditional expression whose condition
// tests `hasattr`/`getattr` on a torch module or object (resolved through `model`) or compares
// torch versions.
bool is_compat_guarded(Node node, const SemanticModel& model);

}  // namespace torchmigrate::python
