// SPDX-License-Identifier: MIT
// Recognises compatibility code that already handles both torch versions, which no rule may
// flag: `try/except (ImportError, AttributeError)`, `hasattr(...)` guards and torch version
// comparisons.
#pragma once

#include "torchmigrate/python/semantic_model.hpp"
#include <string>
#include <vector>

#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

// True when `node` sits in a try statement that catches ImportError/AttributeError (in its
// body or its handlers), or in any branch of an `if`/conditional expression whose condition
// tests `hasattr`/`getattr` on a torch module or object (resolved through `model`) or compares
// the torch version with 2.8 or later. For a behaviour change (TM2xx) only the version
// comparison counts: a changed default raises nothing for a try or hasattr to catch.
// With `try_markers`, a try statement counts only when its text mentions one of them (the new
// spelling): `try: import onnxruntime ... except ImportError` guards nothing of torch's.
bool is_compat_guarded(Node node, const SemanticModel& model, bool behaviour_change = false,
                       const std::vector<std::string>* try_markers = nullptr);

}  // namespace torchmigrate::python
