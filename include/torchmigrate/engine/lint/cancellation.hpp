// SPDX-License-Identifier: MIT
// Lets the caller of a long lint stop it once its result is no longer wanted (an editor changed
// the document meanwhile). The linter polls it between units of work and then throws.
#pragma once

#include <functional>
#include <stdexcept>

namespace torchmigrate::engine {

// Answers "stop now?"; an empty function never stops.
using StopRequested = std::function<bool()>;

// Thrown out of Linter::lint when its StopRequested said yes; no partial result exists.
struct LintCancelled : std::runtime_error {
  LintCancelled() : std::runtime_error("the lint was cancelled") {}
};

}  // namespace torchmigrate::engine
