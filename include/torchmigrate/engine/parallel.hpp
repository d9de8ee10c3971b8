// SPDX-License-Identifier: MIT
// Runs a function over indices 0..count-1 on a fixed number of threads. Results are written by
// index, so the output order never depends on the thread count.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace torchmigrate::engine {

inline unsigned default_jobs() {
  unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : cores;
}

inline void parallel_for(size_t count, unsigned jobs, const std::function<void(size_t)>& body) {
  if (jobs <= 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::jthread> workers;
  for (unsigned w = 0; w < jobs && w < count; ++w) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) body(i);
    });
  }
}

}  // namespace torchmigrate::engine
