// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/params.hpp"

#include <nlohmann/json.hpp>

namespace torchmigrate::checks {

Params::Params(const engine::RuleSpec& rule)
    : Params(rule.check_params ? rule.check_params : std::make_shared<const nlohmann::json>(nlohmann::json::object()),
             rule.code + ": check.params") {}

Params::Params(const nlohmann::json& object, std::string where)
    : Params(std::make_shared<const nlohmann::json>(object), std::move(where)) {}

Params::Params(std::shared_ptr<const nlohmann::json> object, std::string where)
    : object_(std::move(object)), where_(std::move(where)) {
  if (!object_->is_object()) fail("must be an object");
}

bool Params::has(const std::string& key) const { return object_->contains(key); }

void Params::fail(const std::string& what) const { throw engine::CatalogError(where_ + ": " + what); }

const nlohmann::json& Params::get(const std::string& key) const {
  seen_.insert(key);
  if (!object_->contains(key)) fail("missing key `" + key + "`");
  return object_->at(key);
}

std::string Params::string(const std::string& key) const {
  const nlohmann::json& value = get(key);
  if (!value.is_string()) fail("`" + key + "` must be a string");
  return value.get<std::string>();
}

std::vector<std::string> Params::strings(const std::string& key) const {
  const nlohmann::json& value = get(key);
  if (!value.is_array()) fail("`" + key + "` must be an array of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& item : value) {
    if (!item.is_string()) fail("`" + key + "` must be an array of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

size_t Params::integer(const std::string& key) const {
  const nlohmann::json& value = get(key);
  if (!value.is_number_unsigned()) fail("`" + key + "` must be a non-negative integer");
  return value.get<size_t>();
}

bool Params::boolean(const std::string& key, bool fallback) const {
  seen_.insert(key);
  if (!object_->contains(key)) return fallback;
  if (!object_->at(key).is_boolean()) fail("`" + key + "` must be true or false");
  return object_->at(key).get<bool>();
}

size_t Params::choice(const std::string& key, std::initializer_list<std::string_view> options) const {
  std::string value = string(key);
  std::string listed;
  size_t index = 0;
  for (std::string_view option : options) {
    if (value == option) return index;
    listed += (index++ == 0 ? "" : ", ") + std::string(option);
  }
  fail("`" + key + "` is `" + value + "`, not one of " + listed);
}

Params Params::object(const std::string& key) const { return Params(get(key), where_ + "." + key); }

std::vector<Params> Params::objects(const std::string& key) const {
  const nlohmann::json& value = get(key);
  if (!value.is_array()) fail("`" + key + "` must be an array of objects");
  std::vector<Params> out;
  for (size_t i = 0; i < value.size(); ++i) out.emplace_back(value[i], where_ + "." + key + "[" + std::to_string(i) + "]");
  return out;
}

void Params::finish() const {
  for (const auto& [key, value] : object_->items()) {
    if (!seen_.count(key)) fail("unknown key `" + key + "`");
  }
}

}  // namespace torchmigrate::checks
