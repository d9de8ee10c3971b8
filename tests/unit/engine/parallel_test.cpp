// SPDX-License-Identifier: MIT
// The default job count is the processors this process may use, not the machine's.
#include <catch2/catch.hpp>

#include <sched.h>

#include "torchmigrate/engine/run/parallel.hpp"

using namespace torchmigrate::engine;

TEST_CASE("A cgroup's cpu.max line gives whole processors, rounded up") {
  CHECK(cores_of_cpu_max("200000 100000") == 2U);
  CHECK(cores_of_cpu_max("150000 100000") == 2U);
  CHECK(cores_of_cpu_max("50000 100000") == 1U);
  CHECK(cores_of_cpu_max("max 100000") == std::nullopt);
  CHECK(cores_of_cpu_max("") == std::nullopt);
  CHECK(cores_of_cpu_max("100000 0") == std::nullopt);
}

TEST_CASE("A thread pinned to one processor gets one job") {
  cpu_set_t before;
  REQUIRE(sched_getaffinity(0, sizeof(before), &before) == 0);
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  REQUIRE(sched_setaffinity(0, sizeof(one), &one) == 0);
  unsigned pinned = available_processors();
  sched_setaffinity(0, sizeof(before), &before);
  CHECK(pinned == 1);
  CHECK(available_processors() <= static_cast<unsigned>(CPU_COUNT(&before)));
}
