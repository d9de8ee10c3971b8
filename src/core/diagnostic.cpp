// SPDX-License-Identifier: MIT
#include "torchmigrate/core/diagnostic.hpp"

namespace torchmigrate {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
  }
  return "warning";
}

}  // namespace torchmigrate
