// SPDX-License-Identifier: MIT
// A hash map keyed by strings that is looked up by std::string_view without building a string
// (a transparent hash): hot look-ups by a slice of a larger text allocate nothing.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace torchmigrate {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;

}  // namespace torchmigrate
