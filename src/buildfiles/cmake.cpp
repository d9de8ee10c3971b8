// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/cmake.hpp"

#include <cctype>

namespace torchmigrate::buildfiles {

bool calls_find_package(const BuildFile& file, std::string_view package) {
  static constexpr std::string_view kCommand = "find_package";
  for (const LogicalLine& line : file.lines) {
    std::string_view text = line.text;
    for (size_t at = 0; at + kCommand.size() <= text.size(); ++at) {
      bool match = true;
      for (size_t k = 0; k < kCommand.size() && match; ++k) {
        match = std::tolower(static_cast<unsigned char>(text[at + k])) == kCommand[k];
      }
      if (!match) continue;
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
      size_t i = at + kCommand.size();
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i >= text.size() || text[i] != '(') continue;
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '"')) ++i;
      if (text.substr(i, package.size()) != package) continue;
      size_t after = i + package.size();
      if (after == text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_')) return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::buildfiles
