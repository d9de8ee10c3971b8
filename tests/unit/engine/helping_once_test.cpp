// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "torchmigrate/engine/run/helping_once.hpp"

using torchmigrate::engine::HelpingOnce;
using namespace std::chrono_literals;

namespace {

// A flag one thread raises and another waits for, at most ten seconds (a hung test fails).
class Signal {
 public:
  void raise() {
    {
      std::lock_guard lock(mutex_);
      raised_ = true;
    }
    changed_.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return raised_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool raised_ = false;
};

}  // namespace

TEST_CASE("HelpingOnce runs its task once, however many threads call it") {
  HelpingOnce once;
  std::atomic<int> runs{0};
  std::atomic<int> iterations{0};
  auto task = [&] {
    ++runs;
    once.parallel_for(1000, [&](size_t) { ++iterations; });
  };
  CHECK_FALSE(once.done());
  std::vector<std::jthread> threads;
  for (int i = 0; i < 8; ++i) threads.emplace_back([&] { once.call(task); });
  threads.clear();
  once.call(task);
  CHECK(runs == 1);
  CHECK(iterations == 1000);
  CHECK(once.done());
}

TEST_CASE("A thread that waits for a HelpingOnce's task works on its loop") {
  HelpingOnce once;
  Signal started;
  Signal helped;
  bool owner_saw_help = false;
  size_t by_owner = 0;
  std::thread::id owner;
  std::atomic<size_t> by_helper{0};
  std::jthread running([&] {
    once.call([&] {
      owner = std::this_thread::get_id();
      started.raise();
      once.parallel_for(100, [&](size_t) {
        if (std::this_thread::get_id() != owner) {
          ++by_helper;
          helped.raise();
          return;
        }
        // The owner's first iteration lasts until a helper took one: without help it would take
        // every iteration itself.
        if (by_owner++ == 0) owner_saw_help = helped.wait();
      });
    });
  });
  REQUIRE(started.wait());
  once.call([] { FAIL("the task runs once"); });  // returns when the task is done, having helped
  running.join();
  CHECK(by_helper > 0);
  CHECK(by_helper + by_owner == 100);
  // A helper that came first may have taken every iteration before the owner took one.
  CHECK((by_owner == 0 || owner_saw_help));
}

TEST_CASE("A HelpingOnce task that throws runs again at the next call") {
  HelpingOnce once;
  int runs = 0;
  auto failing = [&] {
    ++runs;
    throw std::runtime_error("disk gone");
  };
  CHECK_THROWS_WITH(once.call(failing), "disk gone");
  CHECK_FALSE(once.done());
  CHECK_NOTHROW(once.call([&] { ++runs; }));
  CHECK(runs == 2);
  once.call([&] { ++runs; });
  CHECK(runs == 2);
}

TEST_CASE("HelpingOnce::parallel_for rethrows a body's exception after the loop") {
  HelpingOnce once;
  std::atomic<int> ran{0};
  auto task = [&] {
    once.parallel_for(10, [&](size_t i) {
      ++ran;
      if (i == 3) throw std::runtime_error("bad file");
    });
  };
  CHECK_THROWS_WITH(once.call(task), "bad file");
  CHECK(ran == 4);  // alone, the calling thread stops taking iterations at the first error
}
