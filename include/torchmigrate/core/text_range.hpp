// SPDX-License-Identifier: MIT
// Byte-offset ranges into a source file; the only position type inside the engine.
#pragma once

#include <cstdint>

namespace torchmigrate {

struct TextRange {
  uint32_t start = 0;
  uint32_t end = 0;

  [[nodiscard]] uint32_t length() const { return end - start; }
  [[nodiscard]] bool empty() const { return start == end; }
  [[nodiscard]] bool contains(uint32_t offset) const { return offset >= start && offset < end; }
  [[nodiscard]] bool overlaps(const TextRange& other) const {
    // Two insertions at the same point also conflict: their order would be arbitrary.
    if (empty() && other.empty()) return start == other.start;
    return start < other.end && other.start < end;
  }
  bool operator==(const TextRange&) const = default;
  auto operator<=>(const TextRange&) const = default;
};

}  // namespace torchmigrate
