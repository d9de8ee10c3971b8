// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace torchmigrate::cli {

namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(100);

bool set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

// How long a run lasts before the line appears. TORCHMIGRATE_PROGRESS_DELAY_MS shortens it for
// the terminal test, which cannot wait for a run of a second.
std::chrono::milliseconds start_delay() {
  const char* value = std::getenv("TORCHMIGRATE_PROGRESS_DELAY_MS");
  if (value != nullptr && *value != '\0') return std::chrono::milliseconds(std::strtol(value, nullptr, 10));
  return std::chrono::milliseconds(1000);
}

}  // namespace

bool ProgressLine::watched() {
  if (isatty(STDERR_FILENO) != 1) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  // CI runners often give jobs a pseudo-terminal; their logs must not fill with redraws.
  return !set("CI") && !set("GITHUB_ACTIONS") && !set("GITLAB_CI") && !set("BUILDKITE") && !set("JENKINS_URL");
}

ProgressLine::ProgressLine(std::ostream& err, size_t total_files, bool wanted) : ProgressLine(err, wanted) {
  start(total_files);
}

ProgressLine::ProgressLine(std::ostream& err, bool wanted)
    : err_(err), total_(0), delay_(start_delay()), wanted_(wanted) {}

void ProgressLine::start(size_t total_files) {
  total_ = total_files;
  if (wanted_ && total_files > 0 && watched()) ticker_ = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::file_done(size_t findings) {
  findings_ += findings;
  ++done_;
}

void ProgressLine::run() {
  std::unique_lock lock(mutex_);
  if (stop_requested_.wait_for(lock, delay_, [this] { return stopping_; })) return;
  do {
    draw();
  } while (!stop_requested_.wait_for(lock, kRedrawEvery, [this] { return stopping_; }));
}

void ProgressLine::draw() {
  size_t findings = findings_;
  // A streamed run may check a file reached under two names twice (see StreamedSession::add).
  size_t done = std::min(done_.load(), total_);
  // \r and "erase line": each redraw replaces the last one.
  err_ << fmt::format("\r\x1b[2K[{:>{}}/{} files] {} finding{}", done, fmt::formatted_size("{}", total_), total_,
                      findings, findings == 1 ? "" : "s")
       << std::flush;
  drawn_ = true;
}

void ProgressLine::finish() {
  if (!ticker_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_requested_.notify_all();
  ticker_.join();
  if (drawn_) err_ << "\r\x1b[2K" << std::flush;
}

}  // namespace torchmigrate::cli
