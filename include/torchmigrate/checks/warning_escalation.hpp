// SPDX-License-Identifier: MIT
// When a deprecation warning is an error for the project (TM320): its pytest configuration
// turns DeprecationWarnings into failures, or it admits a Python on which torch says the call
// "may break". Read from a rule's `escalation` parameters; the texts come from the catalog.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"

namespace torchmigrate::checks {

// What a finding's message says about its severity, and the severity when it is an error.
struct Escalated {
  std::string text;
  std::optional<Severity> severity;
};

class WarningEscalation {
 public:
  explicit WarningEscalation(const Params& params);

  // The project facts `judge` reads.
  [[nodiscard]] engine::FactsRead facts_read() const;
  // For a use of `function` (a qualified name or a method name) in a file with `settings`.
  [[nodiscard]] Escalated judge(const std::string& function, const engine::Settings& settings) const;

 private:
  std::string note_;    // no escalation
  std::string pytest_;  // `{filter}`, `{where}`
  std::string python_version_;
  std::set<std::string, std::less<>> python_functions_;
  std::string python_note_;   // no escalation, for python_functions_
  std::string python_error_;  // `{where}`, `{line}`
};

}  // namespace torchmigrate::checks
