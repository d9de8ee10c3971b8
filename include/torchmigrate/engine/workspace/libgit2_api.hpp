// SPDX-License-Identifier: MIT
// libgit2, loaded with dlopen on the first question that needs git: whether a path matches a
// configured glob. Linked, it maps libgit2 and its 17 dependent
// libraries (Kerberos, mbedTLS, libssh2, ...) into every process: an empty program linked with it
// starts in 7 ms instead of 0.7, a cost `--version` and a one-file pre-commit run would pay
// without asking git anything. See docs/architecture.md.
#pragma once

#include <git2.h>

#include "torchmigrate/core/shared_library.hpp"

// Every libgit2 function torchmigrate calls; the headers give each one's type.
#define TORCHMIGRATE_LIBGIT2_FUNCTIONS(X) \
  X(git_libgit2_init)                     \
  X(git_pathspec_new)                     \
  X(git_pathspec_free)                    \
  X(git_pathspec_matches_path)

namespace torchmigrate::engine {

// One pointer per function, named as in the C API: `libgit2().git_pathspec_free(spec)`.
struct Libgit2Api {
#define TORCHMIGRATE_LIBGIT2_POINTER(name) decltype(&::name) name = nullptr;
  TORCHMIGRATE_LIBGIT2_FUNCTIONS(TORCHMIGRATE_LIBGIT2_POINTER)
#undef TORCHMIGRATE_LIBGIT2_POINTER
};

// The process's libgit2, loaded and started on the first call from any thread
// ($TORCHMIGRATE_LIBGIT2 names the library to use instead). Throws MissingLibrary, saying what to
// install, when it cannot be loaded: .gitignore and glob verdicts decide which files are
// checked, so a run that needs them cannot go on without.
const Libgit2Api& libgit2();

}  // namespace torchmigrate::engine
