// SPDX-License-Identifier: MIT
// Runs a function over indices 0..count-1 on a fixed number of threads. Results are written by
// index, so the output order never depends on the thread count.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

namespace torchmigrate::engine {

// The processors this process may run on: those of its affinity mask (`taskset`, a pinned CI
// job), fewer when its cgroup's CPU quota allows fewer (a container's `--cpus`; cgroup v2,
// mounted at /sys/fs/cgroup). std::thread::hardware_concurrency counts the machine's. Unlike
// Rust's available_parallelism a fractional quota rounds up: 1.5 processors keep two threads
// busier than one.
unsigned available_processors();
// available_processors(), read once per process: a run's `-j` when none is given.
unsigned default_jobs();
// Whole processors a cgroup v2 `cpu.max` line allows ("200000 100000": 2; "150000 100000": 2;
// "max 100000": no limit).
std::optional<unsigned> cores_of_cpu_max(std::string_view line);

// Runs body(0) .. body(count - 1), maybe on several threads (parallel_for's, or those that share
// a HelpingOnce), and returns when all have run.
using LoopRunner = std::function<void(size_t count, const std::function<void(size_t)>& body)>;

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
