// SPDX-License-Identifier: MIT
// A torch release as MAJOR.MINOR: what rules, fixes and the project's supported range speak of.
#pragma once

#include <compare>
#include <string>
#include <string_view>

namespace torchmigrate {

struct TorchVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const TorchVersion&) const = default;
  [[nodiscard]] std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  // The next minor release: `> 2.7` admits 2.8 and later at this granularity.
  [[nodiscard]] TorchVersion next() const { return {major, minor + 1}; }
  // Parses "2.7" or "2.7.1"; throws std::invalid_argument otherwise.
  static TorchVersion parse(std::string_view text);
};

}  // namespace torchmigrate
