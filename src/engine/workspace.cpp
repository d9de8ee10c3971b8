// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

Workspace::Workspace(const Catalog& catalog, const CheckRegistry& registry, CliOverrides overrides,
                     std::optional<fs::path> explicit_config, bool isolated)
    : catalog_(catalog), registry_(registry),
      resolver_(catalog, std::move(overrides), std::move(explicit_config), isolated) {}

void Workspace::set_run_facts(RunFacts facts) {
  std::lock_guard lock(mutex_);
  facts_ = std::move(facts);
  linters_.clear();
}

const ResolvedConfig& Workspace::config_for(const fs::path& path) {
  std::lock_guard lock(mutex_);
  return resolver_.for_path(path);
}

const Linter& Workspace::linter_for(const fs::path& path) {
  std::lock_guard lock(mutex_);
  const ResolvedConfig& config = resolver_.for_path(path);
  std::vector<std::string> ignored = config.ignored_for(path);
  std::string key = (config.source ? config.source->string() : std::string()) + '\n';
  for (const std::string& code : ignored) key += code + ',';
  auto it = linters_.find(key);
  if (it == linters_.end()) {
    Settings settings = config.settings;
    settings.selection.file_ignore = ignored;
    if (config.min_torch_source.empty() && facts_.detected_min_torch) settings.min_torch = *facts_.detected_min_torch;
    settings.project_facts = facts_.project_facts;
    settings.compile_database_dir = facts_.compile_database_dir;
    it = linters_.emplace(key, std::make_unique<Linter>(catalog_, registry_, std::move(settings))).first;
  }
  return *it->second;
}

DiscoveryFilter Workspace::filter(bool force_exclude) {
  DiscoveryFilter filter;
  filter.force_exclude = force_exclude;
  filter.excluded = [this](const fs::path& path, bool /*directory*/) {
    const ResolvedConfig& config = config_for(path);
    if (config.excluded(path)) return true;
    std::lock_guard lock(mutex_);
    return config.respect_gitignore && gitignore_.is_ignored(path);
  };
  filter.language = [this](const fs::path& path) { return config_for(path).language_for(path); };
  return filter;
}

}  // namespace torchmigrate::engine
