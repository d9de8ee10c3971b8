// SPDX-License-Identifier: MIT
// The top-level statements an editor's lint checks again (the edited one, and those that spell a
// module-level name whose meaning the edit changed): the semantic model and the compatibility
// guards read nothing inside the other statements' bodies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "torchmigrate/core/text_range.hpp"

namespace torchmigrate::python {

class Focus {
 public:
  // `ranges`: whole top-level statements, in any order; an empty range (a statement deleted)
  // reads nothing.
  explicit Focus(std::vector<TextRange> ranges) : ranges_(std::move(ranges)) {
    std::erase_if(ranges_, [](const TextRange& range) { return range.empty(); });
    std::sort(ranges_.begin(), ranges_.end());
  }

  // Whether [start, end) reaches into a focused statement.
  [[nodiscard]] bool overlaps(uint32_t start, uint32_t end) const {
    auto after = std::lower_bound(ranges_.begin(), ranges_.end(), end,
                                  [](const TextRange& range, uint32_t value) { return range.start < value; });
    return after != ranges_.begin() && start < std::prev(after)->end;
  }

  [[nodiscard]] const std::vector<TextRange>& ranges() const { return ranges_; }

 private:
  std::vector<TextRange> ranges_;
};

}  // namespace torchmigrate::python
