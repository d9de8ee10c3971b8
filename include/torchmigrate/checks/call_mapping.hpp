// SPDX-License-Identifier: MIT
// How a call's arguments map onto the function that replaces it, read once from a catalog entry
// (`renames[].call` of the renamed-callable family) and applied to every call: the edits, or
// why this call cannot be rewritten. The callee's own rename is not part of it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::checks {

class Params;

// Edits for one call, or the reason it cannot be rewritten ("passes `**kwargs`, ...").
using CallRewrite = std::variant<std::vector<Edit>, std::string>;

class CallMapping {
 public:
  CallMapping() = default;  // the call stays as written
  // Reads the keys of `call` (see rules/schema.json, `$defs/call_mapping`); throws CatalogError.
  CallMapping(const Params& call, std::string new_name);

  // True when a call needs no change beyond its callee, so a plain reference may be renamed too.
  [[nodiscard]] bool is_identity() const;
  [[nodiscard]] CallRewrite rewrite(python::Node call) const;

 private:
  struct Keyword {
    std::string name;
    std::string text;  // the value to add, or why the keyword blocks a rewrite
  };

  [[nodiscard]] std::optional<std::string> refusal(python::Node call) const;
  [[nodiscard]] CallRewrite pack(python::Node call) const;

  std::string new_name_;
  std::optional<size_t> max_positional_;
  std::optional<std::vector<std::string>> accepted_keywords_;  // any other keyword blocks the rewrite
  std::vector<Keyword> refused_keywords_;
  std::optional<size_t> pack_after_;     // arguments after this many positional ones become `(args,)`
  std::string pack_keywords_into_;       // and keywords a `name={...}` dict
  std::vector<Keyword> added_keywords_;  // added unless given
  std::string then_method_;              // `.method(moved=...)` appended to the call
  std::vector<std::string> moved_keywords_;
  bool negate_ = false;
};

}  // namespace torchmigrate::checks
