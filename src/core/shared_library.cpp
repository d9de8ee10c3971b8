// SPDX-License-Identifier: MIT
#include "torchmigrate/core/shared_library.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace torchmigrate {

SharedLibrary open_shared_library(const std::vector<std::string>& candidates, const ResolveSymbols& resolve,
                                  const std::string& not_it) {
  SharedLibrary result;
  std::string first_error;
  for (const std::string& candidate : candidates) {
    // RTLD_LOCAL: the library's symbols stay out of the global namespace of later loads.
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string error;
    if (handle == nullptr) {
      const char* reason = ::dlerror();
      error = reason != nullptr ? reason : candidate + ": cannot be opened";
    } else if (std::string missing = resolve(handle); !missing.empty()) {
      error = candidate + ": has no " + missing + " (" + not_it + ")";
      ::dlclose(handle);  // nothing of it was used
    } else {
      result.handle = handle;
      result.path = candidate;
      return result;
    }
    if (first_error.empty()) first_error = error;
  }
  result.error = candidates.empty() ? "no library to try" : first_error;
  if (candidates.size() > 1) {
    result.error += "; also tried";
    for (size_t i = 1; i < candidates.size(); ++i) result.error += (i == 1 ? " " : ", ") + candidates[i];
  }
  return result;
}

std::vector<std::string> library_candidates(std::initializer_list<const char*> names) {
  std::vector<std::string> candidates;
  for (const char* name : names) {
    std::string candidate = name;
    if (!candidate.empty() && std::find(candidates.begin(), candidates.end(), candidate) == candidates.end()) {
      candidates.push_back(std::move(candidate));
    }
  }
  return candidates;
}

}  // namespace torchmigrate
