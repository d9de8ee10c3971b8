// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/parallel.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <string>

namespace torchmigrate::engine {

namespace {

std::optional<unsigned long long> number_at(std::string_view text) {
  unsigned long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The tightest quota of the process's cgroup and those above it (cgroup v2 only).
std::optional<unsigned> cgroup_cores() {
  std::ifstream membership("/proc/self/cgroup");
  std::string line;
  std::string group;
  while (std::getline(membership, line)) {
    if (line.starts_with("0::")) group = line.substr(3);
  }
  if (group.empty() || group.front() != '/') return std::nullopt;
  std::optional<unsigned> tightest;
  for (;;) {
    std::ifstream limit("/sys/fs/cgroup" + group + "/cpu.max");
    if (std::getline(limit, line)) {
      std::optional<unsigned> cores = cores_of_cpu_max(line);
      if (cores && (!tightest || *cores < *tightest)) tightest = cores;
    }
    if (group == "/") return tightest;
    group.erase(std::max<size_t>(group.rfind('/'), 1));
  }
}

}  // namespace

std::optional<unsigned> cores_of_cpu_max(std::string_view line) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::optional<unsigned long long> quota = number_at(line.substr(0, space));
  std::optional<unsigned long long> period = number_at(line.substr(space + 1));
  if (!quota || !period || *period == 0) return std::nullopt;  // "max": no limit
  // A fraction of a processor still runs a thread: rounded up, at least one.
  unsigned long long cores = std::max<unsigned long long>(1, *quota / *period + (*quota % *period != 0));
  return static_cast<unsigned>(std::min<unsigned long long>(cores, std::numeric_limits<unsigned>::max()));
}

unsigned available_processors() {
  unsigned cores = std::thread::hardware_concurrency();
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0) {
    cores = static_cast<unsigned>(CPU_COUNT(&allowed));
  }
  if (std::optional<unsigned> quota = cgroup_cores(); quota && *quota < cores) cores = *quota;
  return std::max(cores, 1U);
}

unsigned default_jobs() {
  static const unsigned jobs = available_processors();
  return jobs;
}

}  // namespace torchmigrate::engine
