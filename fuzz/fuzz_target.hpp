// SPDX-License-Identifier: MIT
// What every fuzz target shares: the libFuzzer entry point it defines, and a check that stops
// the run when an invariant of the code under test does not hold (a crash, for libFuzzer and
// for the regression replay alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace torchmigrate::fuzz {

inline std::string_view bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void invariant_failed(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
  std::abort();
}

}  // namespace torchmigrate::fuzz

#define FUZZ_REQUIRE(condition) \
  ((condition) ? void(0) : ::torchmigrate::fuzz::invariant_failed(#condition, __FILE__, __LINE__))
