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
// available_processors(), read once per process; at most the jobs a run was given (limit_jobs).
unsigned default_jobs();
// A run's `-j`: work it starts outside its own pool (a project's facts) uses no more threads, so
// `-j1` runs on one thread. 0 lifts the limit.
void limit_jobs(unsigned jobs);
// Whole processors a cgroup v2 `cpu.max` line allows ("200000 100000": 2; "150000 100000": 2;
// "max 100000": no limit).
std::optional<unsigned> cores_of_cpu_max(std::string_view line);

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
