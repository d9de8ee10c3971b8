// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

Workspace::Workspace(const Catalog& catalog, const CheckRegistry& registry, CliOverrides overrides,
                     std::optional<fs::path> explicit_config, bool isolated)
    : catalog_(catalog), registry_(registry),
      resolver_(catalog, std::move(overrides), std::move(explicit_config), isolated),
      projects_([this](const fs::path& root) -> Project::FileLister {
        return [this, root] { return project_files(root); };
      }) {}

void Workspace::set_compile_database_dir(std::string directory) {
  std::lock_guard lock(mutex_);
  compile_database_dir_ = std::move(directory);
  linters_.clear();
}

const ResolvedConfig& Workspace::config_for(const fs::path& path) {
  std::lock_guard lock(mutex_);
  return resolver_.for_path(path);
}

FileContext Workspace::context_for(const fs::path& path) {
  std::lock_guard lock(mutex_);
  FileContext context;
  context.config = &resolver_.for_path(path);
  context.project = projects_.project_of(path);
  std::vector<std::string> ignored = context.config->ignored_for(path);
  std::string key = (context.config->source ? context.config->source->string() : std::string()) + '\n' +
                    context.project->root().string() + '\n';
  for (const std::string& code : ignored) key += code + ',';
  context.min_torch_source = !context.config->min_torch_source.empty() ? context.config->min_torch_source
                                                                        : context.project->torch_range().source;
  auto it = linters_.find(key);
  if (it == linters_.end()) {
    Settings settings = context.config->settings;
    settings.selection.file_ignore = ignored;
    // A configured min-torch wins; otherwise the project's own pins say which torch must keep working.
    if (context.config->min_torch_source.empty()) settings.min_torch = context.project->torch_range().min_torch;
    settings.project = context.project;
    settings.compile_database_dir = compile_database_dir_;
    it = linters_.emplace(key, std::make_unique<Linter>(catalog_, registry_, std::move(settings))).first;
  }
  context.linter = it->second.get();
  return context;
}

const Linter& Workspace::linter_for(const fs::path& path) { return *context_for(path).linter; }

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

std::vector<DiscoveredFile> Workspace::project_files(const fs::path& root) {
  DiscoveryFilter walk_filter = filter(false);
  Discovery discovery = discover({root.string()}, config_for(root).build_extensions, &walk_filter);
  // Files of nested projects belong to those projects.
  std::erase_if(discovery.files, [&](const DiscoveredFile& file) { return projects_.root_of(file.path) != root; });
  return std::move(discovery.files);
}

}  // namespace torchmigrate::engine
