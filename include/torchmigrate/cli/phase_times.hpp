// SPDX-License-Identifier: MIT
// `-v`: how long each phase of a run took, printed on stderr at the end.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace torchmigrate::cli {

class PhaseTimes {
 public:
  // Ends the phase running since the last call (or since construction) and names it.
  void end(std::string name);
  // "torchmigrate: timing: discovery 2 ms, settings 9 ms, checking 1.31 s, report 4 ms (7040 files, 2 jobs)"
  void print(std::ostream& err, size_t files, unsigned jobs) const;

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point started_ = Clock::now();
  std::vector<std::pair<std::string, Clock::duration>> phases_;
};

}  // namespace torchmigrate::cli
