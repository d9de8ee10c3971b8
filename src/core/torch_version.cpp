// SPDX-License-Identifier: MIT
#include "torchmigrate/core/torch_version.hpp"

#include <charconv>
#include <stdexcept>

namespace torchmigrate {

TorchVersion TorchVersion::parse(std::string_view text) {
  TorchVersion version;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto fail = [&] {
    return std::invalid_argument("invalid torch version `" + std::string(text) +
                                 "`; expected MAJOR.MINOR (two numbers)");
  };
  auto [after_major, error_major] = std::from_chars(begin, end, version.major);
  if (error_major != std::errc() || after_major == end || *after_major != '.') throw fail();
  auto [after_minor, error_minor] = std::from_chars(after_major + 1, end, version.minor);
  if (error_minor != std::errc() || (after_minor != end && *after_minor != '.')) throw fail();
  return version;
}

}  // namespace torchmigrate
