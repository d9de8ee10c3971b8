// SPDX-License-Identifier: MIT
// Calls whose argument is a name that a listed call made in the same scope, optionally only
// with a given keyword value (`flex_attention(q, ...)` after
// `q = torch.nested.nested_tensor(..., layout=torch.jagged)`). Read from a family's params, so
// the torch names stay in the catalog.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

// A call that makes the value: `callee`, and when `keyword` is set, that argument (by keyword,
// or at `position`) resolving to `value`.
struct MadeBy {
  std::string callee;
  std::string keyword;  // empty: any call of `callee`
  std::optional<size_t> position;
  std::string value;
};

struct MadeArgumentRule {
  std::set<std::string, std::less<>> callees;
  std::set<std::string, std::less<>> last_names;          // of the callees: `a.b.name(...)` ends in one
  std::vector<std::pair<std::string, size_t>> arguments;  // keyword and position of each one watched
  std::vector<MadeBy> made_by;
  Severity severity = Severity::Warning;
  std::string detail;  // `{argument}` (the name) and `{made_by}` (the callee that made it)
  std::string advice;  // the display-only suggestion's title
};

// Reads `{"callees", "arguments": [{"keyword", "position"}], "made_by": [{"callee", "keyword"?,
// "position"?, "value"?}], "severity", "detail", "advice"}`; any other key is an error.
[[nodiscard]] MadeArgumentRule read_made_argument_rule(const Params& params);

struct MadeArgument {
  python::Node argument;  // the name passed
  std::string callee;     // what the call resolves to
  std::string made_by;    // the callee of the call that made it
};

// The first watched argument of `call` that is a name whose binding at the call is an
// assignment `name = made_by(...)` in the call's own scope.
[[nodiscard]] std::optional<MadeArgument> made_argument(python::Node call, const python::SemanticModel& model,
                                                        const MadeArgumentRule& rule);

}  // namespace torchmigrate::checks
