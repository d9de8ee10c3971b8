// SPDX-License-Identifier: MIT
// The registry of every built-in check family, filled explicitly (no static-init magic).
#pragma once

#include "torchmigrate/engine/lint/python_check.hpp"

namespace torchmigrate::checks {

const engine::CheckRegistry& builtin_registry();

}  // namespace torchmigrate::checks
