// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/settings.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <utility>

#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/torch_range.hpp"

namespace torchmigrate::lsp {
namespace {

using nlohmann::json;

std::vector<std::string> string_list(const json& value, std::string_view key, std::vector<std::string>& errors) {
  std::vector<std::string> list;
  if (value.is_string()) {
    list.push_back(value.get<std::string>());
  } else if (value.is_array() && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); })) {
    list = value.get<std::vector<std::string>>();
  } else {
    errors.push_back("option `" + std::string(key) + "` must be a list of rule codes; ignored");
  }
  return list;
}

}  // namespace

ClientOptions parse_client_options(const json& options, std::vector<std::string>& errors) {
  ClientOptions parsed;
  if (options.is_null()) return parsed;
  if (!options.is_object()) {
    errors.emplace_back("initialization options must be an object; ignored");
    return parsed;
  }
  for (const auto& [key, value] : options.items()) {
    if (key == "select") {
      parsed.select = string_list(value, key, errors);
    } else if (key == "extendSelect") {
      parsed.extend_select = string_list(value, key, errors);
    } else if (key == "ignore") {
      parsed.ignore = string_list(value, key, errors);
    } else if (key == "minTorch") {
      if (value.is_string()) {
        parsed.min_torch = value.get<std::string>();
      } else {
        errors.emplace_back("option `minTorch` must be a string, a version MAJOR.MINOR; ignored");
      }
    } else if (key == "targetVersion") {
      if (value.is_string()) {
        parsed.target_version = value.get<std::string>();
      } else {
        errors.emplace_back("option `targetVersion` must be a string, a release MAJOR.MINOR or \"latest\"; ignored");
      }
    } else if (key == "policy") {
      // "adopt-new" for every rule, or {"TM201": "adopt-new"}.
      if (value.is_string()) {
        parsed.policy["ALL"] = value.get<std::string>();
      } else if (value.is_object()) {
        for (const auto& [code, choice] : value.items()) {
          if (choice.is_string()) {
            parsed.policy[code] = choice.get<std::string>();
          } else {
            errors.push_back("option `policy." + code + "` must be \"keep-old\" or \"adopt-new\"; ignored");
          }
        }
      } else {
        errors.emplace_back("option `policy` must be a string or an object of rule codes; ignored");
      }
    } else if (key == "unsafeFixes") {
      if (value.is_boolean()) {
        parsed.unsafe_fixes = value.get<bool>();
      } else {
        errors.emplace_back("option `unsafeFixes` must be true or false; ignored");
      }
    } else {
      errors.push_back("unknown option `" + key + "`; ignored");
    }
  }
  return parsed;
}

bool is_config_file(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (std::find(kConfigFileNames.begin(), kConfigFileNames.end(), name) != kConfigFileNames.end()) return true;
  // A project's pins (its torch range) and the files its facts are gathered from.
  return engine::is_pin_file_name(name) || name == "CMakeLists.txt" || name == ".gitmodules";
}

SettingsResolver::SettingsResolver(const engine::Catalog& catalog, const engine::CheckRegistry& registry)
    : catalog_(catalog), registry_(registry) {}

std::vector<std::string> SettingsResolver::set_options(const ClientOptions& options) {
  // Validate now so the user hears about a typo once, at start-up, with the bad entry named;
  // invalid entries are dropped and the rest applies.
  std::vector<std::string> errors;
  ClientOptions accepted = options;
  const std::pair<const char*, std::vector<std::string>*> lists[] = {
      {"select", &accepted.select}, {"extendSelect", &accepted.extend_select}, {"ignore", &accepted.ignore}};
  for (const auto& [option, list] : lists) {
    const char* name = option;  // a lambda may not capture a structured binding before clang 16
    for (std::string& selector : *list) selector = engine::normalize_selector(selector);  // `tm201`, as check
    std::erase_if(*list, [&](const std::string& selector) {
      try {
        engine::validate_selector(selector, catalog_);
        return false;
      } catch (const std::invalid_argument& error) {
        errors.push_back(std::string("option `") + name + "`: " + error.what());
        return true;
      }
    });
  }
  if (accepted.min_torch) {
    try {
      engine::parse_min_torch(*accepted.min_torch);  // `2.8.1` too, as in check
    } catch (const std::invalid_argument&) {
      errors.push_back("option `minTorch`: `" + *accepted.min_torch + "` is not a version MAJOR.MINOR; ignored");
      accepted.min_torch.reset();
    }
  }
  if (accepted.target_version) {
    try {
      (void)catalog_.parse_target(*accepted.target_version);
    } catch (const std::invalid_argument& error) {
      errors.push_back(std::string("option `targetVersion`: ") + error.what() + "; ignored");
      accepted.target_version.reset();
    }
  }
  std::erase_if(accepted.policy, [&](const auto& entry) {
    const auto& [code, choice] = entry;
    try {
      engine::validate_policy(code, choice, catalog_);
      return false;
    } catch (const engine::PolicyError& error) {
      if (error.problem == engine::PolicyError::Problem::InvalidValue) {
        errors.push_back("option `policy." + code + "`: " + error.what());
      } else {
        errors.push_back(std::string("option `policy`: ") + error.what() + "; ignored");
      }
      return true;
    }
  });
  options_ = std::move(accepted);
  invalidate();
  return errors;
}

std::shared_ptr<const FileSettings> SettingsResolver::defaults() {
  if (!defaults_) {
    auto resolved = std::make_shared<FileSettings>();
    auto linter = std::make_shared<engine::Linter>(catalog_, registry_, engine::Settings{});
    resolved->settings = linter->settings();
    resolved->linter = std::move(linter);
    defaults_ = std::move(resolved);
  }
  return defaults_;
}

engine::Workspace& SettingsResolver::workspace() {
  if (!workspace_) {
    // The client's options act as the command line: they override the files.
    engine::CliOverrides overrides;
    overrides.select = options_.select;
    overrides.extend_select = options_.extend_select;
    overrides.ignore = options_.ignore;
    overrides.min_torch = options_.min_torch;
    overrides.target_version = options_.target_version;
    for (const auto& [code, choice] : options_.policy) overrides.policy[code] = engine::parse_policy(choice);
    overrides.unsafe_fixes = options_.unsafe_fixes;
    workspace_ = std::make_shared<engine::Workspace>(catalog_, registry_, overrides, std::nullopt, false);
    std::vector<std::string> roots;
    for (const std::filesystem::path& root : roots_) roots.push_back(root.string());
    workspace_->set_run_paths(roots);
  }
  return *workspace_;
}

std::shared_ptr<const FileSettings> SettingsResolver::settings_for(const std::filesystem::path& file) {
  try {
    // An unsaved buffer takes the settings of the first workspace root.
    std::filesystem::path where = !file.empty() ? file : roots_.empty() ? std::filesystem::path(".") : roots_.front() / "_";
    const engine::Linter& linter = workspace().linter_for(where);
    auto it = cache_.find(&linter);
    if (it != cache_.end()) return it->second;
    auto resolved = std::make_shared<FileSettings>();
    resolved->settings = linter.settings();
    resolved->linter = std::shared_ptr<const engine::Linter>(workspace_, &linter);
    return cache_.emplace(&linter, std::move(resolved)).first->second;
  } catch (const engine::ConfigError& error) {
    errors_.push_back(std::string(error.what()) + "; using the defaults until it is fixed");
  } catch (const engine::CatalogError& error) {
    errors_.push_back(std::string("cannot use these settings (") + error.what() + "); using the defaults");
  }
  return defaults();
}

bool SettingsResolver::is_excluded(const std::filesystem::path& file) {
  try {
    if (workspace().config_for(file).excluded(file)) return true;
  } catch (const engine::ConfigError&) {
    // Reported by settings_for.
  }
  for (const std::filesystem::path& root : roots_) {
    std::filesystem::path relative = file.lexically_relative(root);
    if (relative.empty() || *relative.begin() == "..") continue;
    // The directories between the root and the file, as the CLI's walk would meet them.
    for (auto it = relative.begin(); it != relative.end() && std::next(it) != relative.end(); ++it) {
      if (engine::is_default_excluded(it->string())) return true;
    }
    return false;
  }
  return false;
}

void SettingsResolver::invalidate() {
  workspace_.reset();
  cache_.clear();
  defaults_.reset();
  ++generation_;
}

}  // namespace torchmigrate::lsp
