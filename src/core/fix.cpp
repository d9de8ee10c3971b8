// SPDX-License-Identifier: MIT
#include "torchmigrate/core/fix.hpp"

#include <algorithm>
#include <stdexcept>

namespace torchmigrate {

std::string_view to_string(Applicability applicability) {
  switch (applicability) {
    case Applicability::Safe: return "safe";
    case Applicability::Unsafe: return "unsafe";
    case Applicability::DisplayOnly: return "display-only";
  }
  return "safe";
}

std::string to_string(const FixRequirements& requirements) {
  if (requirements.empty()) return {};
  std::string text = "torch";
  if (requirements.torch) text += ">=" + requirements.torch->str();
  if (requirements.below) text += std::string(requirements.torch ? "," : "") + "<" + requirements.below->str();
  return text;
}

std::string_view to_string(FixPolicy policy) {
  switch (policy) {
    case FixPolicy::None: return "";
    case FixPolicy::KeepOld: return "keep-old";
    case FixPolicy::AdoptNew: return "adopt-new";
  }
  return "";
}

std::string apply_edits(std::string_view text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) {
    // An insertion goes before a replacement that starts at the same offset.
    return a.range.start != b.range.start ? a.range.start < b.range.start : a.range.end < b.range.end;
  });
  std::string out;
  out.reserve(text.size());
  uint32_t cursor = 0;
  for (const Edit& edit : edits) {
    if (edit.range.start < cursor || edit.range.end > text.size()) {
      throw std::invalid_argument("overlapping or out-of-range edit");
    }
    out.append(text.substr(cursor, edit.range.start - cursor));
    out.append(edit.replacement);
    cursor = edit.range.end;
  }
  out.append(text.substr(cursor));
  return out;
}

}  // namespace torchmigrate
