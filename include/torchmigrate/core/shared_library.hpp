// SPDX-License-Identifier: MIT
// Opening a shared library at run time, for libraries only some runs need (libclang for C/C++
// files, libgit2 for .gitignore and globs): the runs that do not need one never map it and its
// dependencies. A library that loaded is never unloaded.
#pragma once

#include <dlfcn.h>

#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace torchmigrate {

struct SharedLibrary {
  void* handle = nullptr;
  std::string path;   // the candidate that loaded
  std::string error;  // why none did, for messages
  [[nodiscard]] bool loaded() const { return handle != nullptr; }
};

// A library the run cannot go on without could not be loaded; the message says what to install.
class MissingLibrary : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Fills the caller's function pointers from a handle; returns the first name it lacks, else "".
using ResolveSymbols = std::function<std::string(void* handle)>;

// In a function `std::string resolve(void* handle, Api& api)`, given as the X of an X-macro list
// of C functions: sets `api.NAME` from the handle, returning the first name the library lacks.
#define TORCHMIGRATE_RESOLVE_SYMBOL(name)                                  \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(handle, #name)); \
  if (api.name == nullptr) return #name;

// Tries each file or library name in order (names go through the dynamic linker's search); the
// first that opens and exports every function wins. `not_it` explains a library that lacks one,
// e.g. "not a libclang, or too old".
SharedLibrary open_shared_library(const std::vector<std::string>& candidates, const ResolveSymbols& resolve,
                                  const std::string& not_it);

// The names in order, without empty ones and repeats.
std::vector<std::string> library_candidates(std::initializer_list<const char*> names);

}  // namespace torchmigrate
