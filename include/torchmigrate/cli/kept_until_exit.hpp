// SPDX-License-Identifier: MIT
// A command's run ends the process, and destroying what it built (a tree's paths, its
// configurations, the cache's entries) only repeats what the operating system does when it
// reclaims the process: it was 4% of a warm cached run (clang's -disable-free makes the same
// trade). Objects made here are never destroyed; sanitizer builds destroy them at exit, so that
// the leak checker still sees everything else.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace torchmigrate::cli {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kFreeAtExit = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kFreeAtExit = true;
#else
inline constexpr bool kFreeAtExit = false;
#endif
#else
inline constexpr bool kFreeAtExit = false;
#endif

// Makes a T that lives until the process ends. For objects made once per process: the check
// and report commands' run, never the language server's loop.
template <typename T, typename... Args>
T& kept_until_exit(Args&&... args) {
  T* object = new T(std::forward<Args>(args)...);
  if constexpr (kFreeAtExit) {
    // Destroyed in the reverse order of their making, before the statics made earlier.
    static std::vector<std::shared_ptr<void>> kept;
    kept.insert(kept.begin(),
                std::shared_ptr<void>(object, [](void* kept_object) { delete static_cast<T*>(kept_object); }));
  }
  return *object;
}

}  // namespace torchmigrate::cli
