// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/helping_once.hpp"

namespace torchmigrate::engine {

void HelpingOnce::call(const std::function<void()>& task) {
  std::unique_lock lock(mutex_);
  while (state_ != State::Done) {
    if (state_ == State::Idle) {
      run_task(lock, task);
      return;
    }
    if (loop_ != nullptr && loop_->next.load() < loop_->count) {
      Loop& loop = *loop_;
      ++loop.helpers;
      lock.unlock();
      work(loop);
      lock.lock();
      if (--loop.helpers == 0) changed_.notify_all();
    } else {
      changed_.wait(lock);
    }
  }
}

void HelpingOnce::run_task(std::unique_lock<std::mutex>& lock, const std::function<void()>& task) {
  state_ = State::Running;
  running_.store(true, std::memory_order_release);
  lock.unlock();
  try {
    task();
  } catch (...) {
    lock.lock();
    state_ = State::Idle;
    running_.store(false, std::memory_order_release);
    changed_.notify_all();
    throw;
  }
  lock.lock();
  state_ = State::Done;
  done_.store(true, std::memory_order_release);
  running_.store(false, std::memory_order_release);
  changed_.notify_all();
}

void HelpingOnce::work(Loop& loop) {
  for (size_t i = loop.next++; i < loop.count; i = loop.next++) {
    try {
      (*loop.body)(i);
    } catch (...) {
      loop.next = loop.count;  // the others stop taking iterations
      std::lock_guard lock(mutex_);
      if (!loop.error) loop.error = std::current_exception();
    }
  }
}

void HelpingOnce::parallel_for(size_t count, const std::function<void(size_t)>& body) {
  Loop loop(count, body);
  {
    std::lock_guard lock(mutex_);
    loop.helpers = 1;
    loop_ = &loop;
  }
  changed_.notify_all();
  work(loop);
  std::unique_lock lock(mutex_);
  loop_ = nullptr;
  --loop.helpers;
  changed_.wait(lock, [&] { return loop.helpers == 0; });
  if (loop.error) std::rethrow_exception(loop.error);
}

}  // namespace torchmigrate::engine
