// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/libgit2_api.hpp"

#include <cstdlib>
#include <mutex>

#include "torchmigrate/core/shared_library.hpp"

// TORCHMIGRATE_LIBGIT2_SONAME, _PATH and _PACKAGE come from the libgit2 found at configure time
// (cmake/libgit2_runtime.cmake).

namespace torchmigrate::engine {
namespace {

std::string resolve(void* handle, Libgit2Api& api) {
  TORCHMIGRATE_LIBGIT2_FUNCTIONS(TORCHMIGRATE_RESOLVE_SYMBOL)
  return {};
}

struct Libgit2Load {
  Libgit2Api api;
  std::string error;
};

const Libgit2Load& process_libgit2() {
  static Libgit2Load load;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* chosen = std::getenv("TORCHMIGRATE_LIBGIT2");
    bool overridden = chosen != nullptr && *chosen != '\0';
    std::vector<std::string> candidates =
        overridden ? std::vector<std::string>{chosen}
                   : library_candidates(
                         {TORCHMIGRATE_LIBGIT2_SONAME, TORCHMIGRATE_LIBGIT2_PATH, "libgit2.so.1.5", "libgit2.so"});
    SharedLibrary library = open_shared_library(
        candidates, [&](void* handle) { return resolve(handle, load.api); }, "not a libgit2");
    if (!library.loaded()) {
      load.api = {};
      load.error = std::string(overridden ? "TORCHMIGRATE_LIBGIT2: " : "") + library.error;
      return;
    }
    // Never shut down: the library stays for the rest of the process.
    load.api.git_libgit2_init();
  });
  return load;
}

}  // namespace

const Libgit2Api& libgit2() {
  const Libgit2Load& load = process_libgit2();
  if (!load.error.empty()) {
    throw MissingLibrary("libgit2 could not be loaded (" + load.error +
                         "); it answers which files .gitignore and the configured globs exclude: install " +
                         TORCHMIGRATE_LIBGIT2_PACKAGE + " (apt-get install " + TORCHMIGRATE_LIBGIT2_PACKAGE + ")");
  }
  return load.api;
}

}  // namespace torchmigrate::engine
