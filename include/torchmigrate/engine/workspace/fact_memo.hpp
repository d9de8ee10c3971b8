// SPDX-License-Identifier: MIT
// Project facts kept between runs. Gathering a project's facts reads every file of the project;
// a warm run needs only their values (for the result cache's keys), so it keeps them with what
// they were gathered from: the project's files and the other paths the gathering looked at
// (`.python-version`, a vendored dlpack.h, the directories walked for one). While every one of
// those has the stamp it had, and the project lists the same files, the values stand, and the
// run stats instead of reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/engine/workspace/discovery.hpp"

namespace torchmigrate::engine {

// What a gathering read beyond the project's listed files, filled in by the gather functions.
struct FactInputs {
  std::vector<std::string> extra_paths;
};

// The signature of a gathering's inputs: a hash of each listed file's and extra path's name and
// stamp (a missing path counts as missing). `newest_ns` is the latest modification or change
// time among them, for the caller's "written during this run" test.
struct InputsSignature {
  std::string hash;
  int64_t newest_ns = 0;
};
InputsSignature inputs_signature(const std::vector<DiscoveredFile>& listed,
                                 const std::vector<std::string>& extra_paths);

// Facts a run stored for a project.
struct StoredFacts {
  std::vector<std::string> extra_paths;  // FactInputs::extra_paths of the gathering
  std::string signature;                 // InputsSignature::hash when it was gathered
  std::string keys;                      // every fact's key (add_fact_keys), as JSON text
};

// Where facts are kept between runs (the result cache). Thread-safe.
class FactMemo {
 public:
  virtual ~FactMemo() = default;
  [[nodiscard]] virtual std::optional<StoredFacts> recall(const std::string& project_root) const = 0;
  // Ignored when some input changed too recently to be told apart from a later change by its stamp.
  virtual void remember(const std::string& project_root, const StoredFacts& facts, int64_t newest_ns) const = 0;
};

}  // namespace torchmigrate::engine
