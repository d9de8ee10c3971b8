// SPDX-License-Identifier: MIT
// Reads a rule's `check.params` into a check's own fields, with errors that name the rule and
// the key; a key the check does not read is an error too.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::checks {

class Params {
 public:
  explicit Params(const engine::RuleSpec& rule);
  Params(const nlohmann::json& object, std::string where);

  [[nodiscard]] bool has(const std::string& key) const;
  [[nodiscard]] std::string string(const std::string& key) const;
  [[nodiscard]] std::vector<std::string> strings(const std::string& key) const;
  [[nodiscard]] size_t integer(const std::string& key) const;
  [[nodiscard]] bool boolean(const std::string& key, bool fallback) const;
  // The index in `options` of the string at `key` (`"warning"` in {"error", "warning", "info"}
  // is 1), for enums listed in their declaration order; any other string is an error.
  [[nodiscard]] size_t choice(const std::string& key, std::initializer_list<std::string_view> options) const;
  [[nodiscard]] Params object(const std::string& key) const;
  [[nodiscard]] std::vector<Params> objects(const std::string& key) const;
  // The value as JSON, for readers shared with the catalog (`requires`).
  [[nodiscard]] const nlohmann::json& json(const std::string& key) const { return get(key); }
  // Throws for any key that was never read.
  void finish() const;

 private:
  Params(std::shared_ptr<const nlohmann::json> object, std::string where);
  [[noreturn]] void fail(const std::string& what) const;
  const nlohmann::json& get(const std::string& key) const;

  std::shared_ptr<const nlohmann::json> object_;  // never null
  std::string where_;
  mutable std::set<std::string> seen_;
};

}  // namespace torchmigrate::checks
