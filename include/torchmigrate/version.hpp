// SPDX-License-Identifier: MIT
// The version is set once, in CMakeLists.txt's project(); the build writes it (and the git
// revision of the checkout it was built from) into a generated source of the core library.
#pragma once

namespace torchmigrate {
extern const char* const kVersion;   // e.g. "0.1.0"
extern const char* const kRevision;  // the checkout's short git revision, or "" outside git
}
