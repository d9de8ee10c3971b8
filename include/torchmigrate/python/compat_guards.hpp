// SPDX-License-Identifier: MIT
// Recognises compatibility code that already handles both torch versions, which no rule may
// flag: branches that torch version tests or feature tests (`hasattr`/`getattr` on the rule's
// own spellings) keep to one side of the rule's release, `try/except (ImportError,
// AttributeError)` around the old spelling, and code after an early `return` of such a branch.
// Branches that only run on torch older than the project supports are never reported.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "torchmigrate/core/torch_version.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

// What counts as compatibility code for one rule; the engine fills it from the catalog.
struct GuardRule {
  // An API that went away is handled by code that only runs on older torch. A changed default is
  // handled by either side of a version test: the new side was written knowing the new default.
  bool new_side_counts = false;
  // `hasattr`/`getattr` tests and `try/except` count (not for a changed default, which raises
  // nothing for them to catch).
  bool feature_tests = true;
  TorchVersion release;    // the release the change arrived in (the catalog's `release.to`)
  TorchVersion min_torch;  // the oldest torch the project supports
  std::vector<std::string> try_markers;  // a try counts only when it mentions one (none: any try)
  std::vector<std::string> old_names;    // attributes that exist only before `release`
  std::vector<std::string> new_names;    // attributes that exist from `release` on
};

enum class GuardVerdict {
  Report,       // ordinary code: report the finding
  Guarded,      // compatibility code for this rule
  Unreachable,  // only runs on torch older than the project supports (or never)
};

// The nodes that can guard code (if/while statements, conditional and boolean expressions, try
// statements), each with its parent, in pre-order.
using GuardNodes = std::vector<std::pair<Node, Node>>;
bool is_guard_kind(KindId kind);

// The guards of one file. One walk of the tree, on the first question, collects its GuardNodes
// (unless the caller's own walk did); each rule's guards are computed from those the first time
// the rule is asked about; every answer after that is a binary search.
class CompatGuards {
 public:
  CompatGuards(Node root, const SemanticModel& model) : root_(root), model_(model) {}
  // `guard_nodes`: every GuardNode of the tree under `root`.
  CompatGuards(Node root, const SemanticModel& model, GuardNodes guard_nodes)
      : root_(root), model_(model), guard_nodes_(std::move(guard_nodes)) {}
  // Verdicts only for findings inside `focus` (an editor's changed statements; `model` may be
  // focused on them too): of the other top-level statements only the guards themselves are
  // read, since what lies inside them guards nothing outside.
  CompatGuards(Node root, const SemanticModel& model, Focus focus)
      : root_(root), model_(model), focus_(std::move(focus)) {}

  // The verdict for a finding of rule `key` (its code) that starts at byte `offset`.
  GuardVerdict verdict(uint32_t offset, const std::string& key, const GuardRule& rule);

  // Syntax nodes visited so far, over all rules: a measure of work for tests.
  [[nodiscard]] uint64_t work() const { return work_; }

  // A set of torch releases, as [lo, hi) in `major * 1000 + minor` units.
  struct Versions {
    int lo = 0;
    int hi = kAny;
    static constexpr int kAny = 1 << 30;
  };
  struct State {
    Versions versions;
    bool in_try = false;  // inside a try/except that counts for the rule
  };

 private:
  Node root_;
  const SemanticModel& model_;
  std::map<std::string, std::vector<std::pair<uint32_t, State>>> tables_;  // by rule: state from each offset on
  std::optional<Focus> focus_;
  std::optional<GuardNodes> guard_nodes_;
  uint64_t work_ = 0;
};

// True when `node` sits in a try statement that catches ImportError/AttributeError, or in a
// branch of an `if` whose condition tests a torch feature or compares the torch version with a
// recent release. Checks use it for the binding a name comes from (`except ImportError: from ...
// import old as new`); findings go through CompatGuards.
bool is_compat_guarded(Node node, const SemanticModel& model);

}  // namespace torchmigrate::python
