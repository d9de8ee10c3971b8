// SPDX-License-Identifier: MIT
#pragma once

namespace torchmigrate {
inline constexpr const char* kVersion = "0.1.0";
}
