// SPDX-License-Identifier: MIT
// JSON Lines: the json format's objects, one compact object per line, for streaming consumers.
#include "torchmigrate/output/report.hpp"

#include <nlohmann/json.hpp>

namespace torchmigrate::output {

void write_json_lines(const Report& report, std::ostream& out) {
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      // Invalid UTF-8 in a message or fix becomes U+FFFD rather than aborting the report.
      out << finding_json(report, findings, diagnostic).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
          << '\n';
    }
  }
}

}  // namespace torchmigrate::output
