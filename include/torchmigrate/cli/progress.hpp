// SPDX-License-Identifier: MIT
// The progress line of a long run: "[ 812/7040 files] 153 findings" on stderr, redrawn in place.
// Only for a person watching: stderr is a terminal, TERM is not dumb, no CI variable is set,
// and the run has lasted a second already. Cleared before the report is printed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <thread>

namespace torchmigrate::cli {

class ProgressLine {
 public:
  // Not shown at all when `wanted` is false or the environment says nobody watches.
  ProgressLine(std::ostream& err, size_t total_files, bool wanted);
  // Counts from now, and is shown only once start() gives the total: a run that checks files
  // while its walk goes on prints the walk's notes before the line may draw.
  ProgressLine(std::ostream& err, bool wanted);
  void start(size_t total_files);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Called from worker threads as each file is done.
  void file_done(size_t findings);
  // Stops redrawing and erases the line.
  void finish();

  // Whether stderr is watched by a person (a terminal, not CI, not TERM=dumb).
  static bool watched();

 private:
  void run();
  void draw();

  std::ostream& err_;
  size_t total_;
  std::atomic<size_t> done_{0};
  std::atomic<size_t> findings_{0};
  std::chrono::milliseconds delay_;
  bool wanted_ = false;
  std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::thread ticker_;
};

}  // namespace torchmigrate::cli
