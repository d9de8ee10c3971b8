// SPDX-License-Identifier: MIT
// A task run once, like std::call_once, whose parallel loops are worked on by the threads that
// wait for it. A project's facts are gathered by the first worker that needs them; a worker that
// needs them meanwhile takes iterations of the loop being run instead of sleeping, so a run never
// starts more threads than its `-j` and no processor idles while there is gathering to do.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>

namespace torchmigrate::engine {

class HelpingOnce {
 public:
  // Runs `task` if no call has completed it: on this thread when no other runs it, else helps the
  // running one and returns when it is done. A task that throws is not done: the exception reaches
  // its caller, and a later call (or a waiting one) runs it again.
  void call(const std::function<void()>& task);

  // Within the task: runs body(0) .. body(count - 1) on this thread and on every thread waiting in
  // call(), in no set order; returns when all have run. The first exception a body throws is
  // rethrown here, after the loop's other threads have left it.
  void parallel_for(size_t count, const std::function<void(size_t)>& body);

  // Whether a call has completed the task.
  [[nodiscard]] bool done() const { return done_.load(std::memory_order_acquire); }
  // Whether a call is running it now (a call would help, or wait).
  [[nodiscard]] bool running() const { return running_.load(std::memory_order_acquire); }

 private:
  struct Loop {
    Loop(size_t count, const std::function<void(size_t)>& body) : count(count), body(&body) {}
    size_t count;
    const std::function<void(size_t)>* body;
    std::atomic<size_t> next{0};
    size_t helpers = 0;        // threads inside work(), the owner included; under mutex_
    std::exception_ptr error;  // under mutex_
  };
  enum class State { Idle, Running, Done };

  void work(Loop& loop);
  void run_task(std::unique_lock<std::mutex>& lock, const std::function<void()>& task);

  std::mutex mutex_;
  std::condition_variable changed_;
  State state_ = State::Idle;
  Loop* loop_ = nullptr;  // the running task's current loop, if it is in one
  std::atomic<bool> done_{false};
  std::atomic<bool> running_{false};
};

}  // namespace torchmigrate::engine
