// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/phase_times.hpp"

#include <fmt/format.h>

namespace torchmigrate::cli {

namespace {

std::string duration_text(std::chrono::steady_clock::duration duration) {
  double ms = std::chrono::duration<double, std::milli>(duration).count();
  return ms >= 1000 ? fmt::format("{:.2f} s", ms / 1000) : fmt::format("{:.0f} ms", ms);
}

}  // namespace

void PhaseTimes::end(std::string name) {
  Clock::time_point now = Clock::now();
  phases_.emplace_back(std::move(name), now - started_);
  started_ = now;
}

void PhaseTimes::print(std::ostream& err, size_t files, unsigned jobs) const {
  std::string text;
  for (const auto& [name, duration] : phases_) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", name, duration_text(duration));
  err << fmt::format("torchmigrate: timing: {} ({} file{}, {} job{})\n", text, files, files == 1 ? "" : "s", jobs,
                     jobs == 1 ? "" : "s");
}

}  // namespace torchmigrate::cli
