// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/libclang_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

// Set by CMake from the libclang found at configure time.
#ifndef TORCHMIGRATE_LIBCLANG_SONAME
#define TORCHMIGRATE_LIBCLANG_SONAME ""
#endif
#ifndef TORCHMIGRATE_LIBCLANG_PATH
#define TORCHMIGRATE_LIBCLANG_PATH ""
#endif
#ifndef TORCHMIGRATE_LIBCLANG_PACKAGE
#define TORCHMIGRATE_LIBCLANG_PACKAGE "libclang1-14"
#endif

namespace torchmigrate::cxx {
namespace {

// Fills every pointer from `handle`; the name of the first missing function, else empty.
std::string resolve(void* handle, LibclangApi& api) {
#define TORCHMIGRATE_LIBCLANG_RESOLVE(name)                                  \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(handle, #name)); \
  if (api.name == nullptr) return #name;
  TORCHMIGRATE_LIBCLANG_FUNCTIONS(TORCHMIGRATE_LIBCLANG_RESOLVE)
#undef TORCHMIGRATE_LIBCLANG_RESOLVE
  return {};
}

const LibclangLoad& process_libclang() {
  static LibclangLoad load;
  static std::once_flag once;
  std::call_once(once, [] {
    load = load_libclang(libclang_candidates());
    if (!load.loaded() && std::getenv("TORCHMIGRATE_LIBCLANG") != nullptr) {
      load.error = "TORCHMIGRATE_LIBCLANG: " + load.error;
    }
  });
  return load;
}

}  // namespace

LibclangLoad load_libclang(const std::vector<std::string>& candidates) {
  LibclangLoad result;
  std::string first_error;
  for (const std::string& candidate : candidates) {
    // RTLD_LOCAL: LLVM's symbols stay out of the global namespace of later loads.
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string error;
    if (handle == nullptr) {
      const char* reason = ::dlerror();
      error = reason != nullptr ? reason : candidate + ": cannot be opened";
    } else if (std::string missing = resolve(handle, result.api); !missing.empty()) {
      error = candidate + ": has no " + missing + " (not a libclang, or too old)";
      ::dlclose(handle);  // nothing of it was used
    } else {
      result.path = candidate;
      return result;
    }
    if (first_error.empty()) first_error = error;
  }
  result.api = {};
  result.error = candidates.empty() ? "no library to try" : first_error;
  if (candidates.size() > 1) {
    result.error += "; also tried";
    for (size_t i = 1; i < candidates.size(); ++i) result.error += (i == 1 ? " " : ", ") + candidates[i];
  }
  return result;
}

std::vector<std::string> libclang_candidates() {
  if (const char* chosen = std::getenv("TORCHMIGRATE_LIBCLANG"); chosen != nullptr && *chosen != '\0') {
    return {chosen};
  }
  std::vector<std::string> candidates;
  for (const char* name : {TORCHMIGRATE_LIBCLANG_SONAME, TORCHMIGRATE_LIBCLANG_PATH, "libclang-14.so.1",
                           "libclang-14.so.13", "libclang.so.1", "libclang-14.so", "libclang.so"}) {
    std::string candidate = name;
    bool seen = false;
    for (const std::string& earlier : candidates) seen = seen || earlier == candidate;
    if (!candidate.empty() && !seen) candidates.push_back(std::move(candidate));
  }
  return candidates;
}

const LibclangApi* try_libclang() {
  const LibclangLoad& load = process_libclang();
  return load.loaded() ? &load.api : nullptr;
}

const std::string& libclang_error() { return process_libclang().error; }

const LibclangApi& libclang() {
  const LibclangApi* api = try_libclang();
  if (api == nullptr) throw std::logic_error("libclang is used but could not be loaded: " + libclang_error());
  return *api;
}

const char* libclang_package() { return TORCHMIGRATE_LIBCLANG_PACKAGE; }

}  // namespace torchmigrate::cxx
