// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/libclang_api.hpp"

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "torchmigrate/core/shared_library.hpp"

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
  TORCHMIGRATE_LIBCLANG_FUNCTIONS(TORCHMIGRATE_RESOLVE_SYMBOL)
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
  SharedLibrary library = open_shared_library(
      candidates, [&](void* handle) { return resolve(handle, result.api); }, "not a libclang, or too old");
  if (!library.loaded()) result.api = {};
  result.path = library.path;
  result.error = library.error;
  return result;
}

std::vector<std::string> libclang_candidates() {
  if (const char* chosen = std::getenv("TORCHMIGRATE_LIBCLANG"); chosen != nullptr && *chosen != '\0') {
    return {chosen};
  }
  return library_candidates({TORCHMIGRATE_LIBCLANG_SONAME, TORCHMIGRATE_LIBCLANG_PATH, "libclang-14.so.1",
                             "libclang-14.so.13", "libclang.so.1", "libclang-14.so", "libclang.so"});
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
