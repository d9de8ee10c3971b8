// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/workspace.hpp"

#include <algorithm>

#include "torchmigrate/engine/workspace/working_directory.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

// A plain file (DiscoveredFile::plain) is known to be a regular file: no lstat.
fs::file_status status_of(const fs::path& path, bool plain) {
  std::error_code error;
  return plain ? fs::file_status(fs::file_type::regular) : fs::symlink_status(path, error);
}

// A configured min-torch wins over the project's pins (and drops an upper bound below it).
TorchRange effective_range(const ResolvedConfig& config, const Project& project) {
  TorchRange range = project.torch_range();
  if (config.min_torch_source.empty()) return range;
  range.min_torch = config.settings.min_torch;
  range.source = config.min_torch_source;
  range.inherited_from.clear();
  if (range.max_torch && *range.max_torch < range.min_torch) range.max_torch.reset();
  return range;
}

// The release the project upgrades to: as configured, which may not lie below the project's
// oldest supported torch; by default the catalog's release, or that oldest torch when it is newer,
// and so for `latest` (a project past the newest catalog has nothing to upgrade to).
// `newest` is the newest release a target may name.
TorchVersion target_for(const ResolvedConfig& config, const TorchRange& range, TorchVersion newest) {
  TorchVersion target = config.settings.target;
  if (!(target < range.min_torch)) return target;
  if (config.target_source.empty() || config.target_latest) return range.min_torch;
  std::string source = config.target_source;
  if (config.source && source.starts_with(config.source->string())) {
    std::error_code error;
    fs::path relative = config.source->lexically_relative(fs::current_path(error));
    if (!error && !relative.empty() && *relative.begin() != "..") {
      source = relative.generic_string() + source.substr(config.source->string().size());
    }
  }
  throw ConfigError("target-version " + target.str() + " (from " + source +
                    ") is older than the oldest torch the project supports, " + range.min_torch.str() + " (from " +
                    range.source + "); choose " +
                    (newest < range.min_torch ? "`latest`, which checks it at its oldest torch"
                                              : range.min_torch.str() + " or later"));
}

}  // namespace

void Workspace::set_run_paths(const std::vector<std::string>& paths) {
  std::optional<fs::path> common;
  std::error_code error;
  for (const std::string& path : paths) {
    fs::path absolute = fs::weakly_canonical(fs::absolute(path, error), error);
    if (error) continue;
    fs::path directory = fs::is_directory(absolute, error) ? absolute : absolute.parent_path();
    if (!common) {
      common = directory;
      continue;
    }
    fs::path shared;
    for (auto a = common->begin(), b = directory.begin(); a != common->end() && b != directory.end() && *a == *b;
         ++a, ++b)
      shared /= *a;
    common = shared;
  }
  if (common && !common->empty()) projects_.set_run_root(*common);
}

Workspace::Workspace(const Catalog& catalog, const CheckRegistry& registry, CliOverrides overrides,
                     std::optional<fs::path> explicit_config, bool isolated)
    : catalog_(catalog),
      registry_(registry),
      resolver_(catalog, std::move(overrides), std::move(explicit_config), isolated, &listings_),
      projects_(
          [this](const fs::path& root) -> Project::FileLister { return [this, root] { return project_files(root); }; },
          {}, &listings_),
      gitignore_(&listings_) {}

void Workspace::set_compile_database_dir(std::string directory) {
  std::lock_guard lock(mutex_);
  compile_database_dir_ = std::move(directory);
  linters_.clear();
  ranges_.clear();
  directory_contexts_.clear();
}

const ResolvedConfig& Workspace::config_for(const fs::path& path) {
  std::lock_guard lock(mutex_);
  return resolver_.for_path(path);
}

// A file's configuration is its directory's: asked once per directory, not once per file.
const ResolvedConfig& Workspace::config_of_existing(const fs::path& path, bool directory) {
  std::lock_guard lock(mutex_);
  std::string_view wanted = directory ? std::string_view(path.native()) : parent_of(path.native());
  // A walk asks about a directory and then about each of its files in a row.
  if (last_config_ != nullptr && wanted == last_config_directory_) return *last_config_;
  std::string key(wanted);
  auto it = directory_configs_.find(key);
  if (it == directory_configs_.end()) it = directory_configs_.emplace(key, &resolver_.for_directory(key)).first;
  last_config_directory_ = std::move(key);
  last_config_ = it->second;
  return *it->second;
}

FileContext Workspace::context_for(const fs::path& path, bool plain) {
  std::lock_guard lock(mutex_);
  // A plain file's configuration and project are its directory's.
  std::string directory = plain ? std::string(parent_of(path.native())) : std::string();
  if (plain) {
    if (auto it = directory_contexts_.find(directory); it != directory_contexts_.end()) return it->second;
  }
  FileContext context;
  // One lstat (or none) serves both look-ups; only a regular file may take its directory's
  // configuration.
  fs::file_status link = status_of(path, plain);
  context.config = fs::is_regular_file(link) ? &config_of_existing(path, false) : &resolver_.for_path(path);
  context.project = projects_.project_of(path, link);
  std::vector<std::string> ignored = context.config->ignored_for(path);
  std::string key = (context.config->source ? context.config->source->string() : std::string()) + '\n' +
                    context.project->root().string() + '\n';
  std::shared_ptr<const TorchRange>& range = ranges_[key];
  if (!range) range = std::make_shared<const TorchRange>(effective_range(*context.config, *context.project));
  context.range = range;
  for (const std::string& code : ignored) key += code + ',';
  context.target_source = context.config->target_source;
  auto it = linters_.find(key);
  if (it == linters_.end()) {
    Settings settings = context.config->settings;
    settings.selection.file_ignore = ignored;
    settings.min_torch = range->min_torch;
    settings.max_torch = range->max_torch;
    settings.torch_range_known = range->pinned();
    const std::vector<TorchVersion>& targets = catalog_.targets();
    settings.target = target_for(*context.config, *range, targets.empty() ? settings.target : targets.back());
    settings.project = context.project;
    settings.compile_database_dir = compile_database_dir_;
    it = linters_.emplace(key, std::make_unique<Linter>(catalog_, registry_, std::move(settings))).first;
  }
  context.linter = it->second.get();
  if (plain && context.config->per_file_ignores.empty()) directory_contexts_.emplace(std::move(directory), context);
  return context;
}

std::shared_ptr<const Project> Workspace::project_of(const DiscoveredFile& file) {
  return projects_.project_of(file.path, status_of(file.path, file.plain));
}

const Linter& Workspace::linter_for(const fs::path& path) { return *context_for(path).linter; }

DiscoveryFilter Workspace::filter(bool force_exclude) {
  DiscoveryFilter filter;
  filter.force_exclude = force_exclude;
  filter.excluded = [this](const fs::path& path, bool directory) {
    std::lock_guard lock(mutex_);
    // A file named by a caller (standard input) need not exist: it takes the short cut only once
    // the walk has shown its directory to be one.
    std::string_view parent = parent_of(path.native());
    bool known = directory || (last_config_ != nullptr && parent == last_config_directory_) ||
                 directory_configs_.contains(std::string(parent));
    const ResolvedConfig& config = known ? config_of_existing(path, directory) : resolver_.for_path(path);
    if (config.excluded(path)) return true;
    return config.respect_gitignore && gitignore_.is_ignored(path, directory);
  };
  filter.language = [this](const fs::path& path) { return config_of_existing(path, false).language_for(path); };
  filter.listings = &listings_;
  return filter;
}

void Workspace::adopt_walk(const std::vector<std::string>& paths, const std::vector<DiscoveredFile>& files) {
  std::vector<fs::path> directories;
  std::error_code error;
  bool all_directories = true;
  for (const std::string& path : paths) {
    all_directories = all_directories && fs::is_directory(path, error);
    if (all_directories) directories.push_back(fs::weakly_canonical(fs::absolute(path, error), error));
  }
  if (all_directories) {
    std::lock_guard lock(mutex_);
    walked_directories_ = std::move(directories);
    walked_files_ = &files;
  }
  end_walk();  // whether adopted or not, whoever waits for the walk may go on
}

void Workspace::forget_walk() {
  {
    std::lock_guard lock(mutex_);
    walked_directories_.clear();
    walked_files_ = nullptr;
  }
  {
    // Forgotten before it was adopted: the walk failed, and its run ends with the error. Facts
    // asked meanwhile get none, rather than holding the error back for a walk of their own.
    std::lock_guard lock(walk_mutex_);
    walk_failed_ = walk_pending_;
  }
  end_walk();
}

void Workspace::begin_walk() {
  std::lock_guard lock(walk_mutex_);
  walk_pending_ = true;
  walk_failed_ = false;
}

void Workspace::end_walk() {
  {
    std::lock_guard lock(walk_mutex_);
    walk_pending_ = false;
  }
  walk_done_.notify_all();
}

std::vector<DiscoveredFile> Workspace::project_files(const fs::path& root) {
  {
    std::unique_lock lock(walk_mutex_);
    walk_done_.wait(lock, [this] { return !walk_pending_; });
    if (walk_failed_) return {};
  }
  {
    std::lock_guard lock(mutex_);
    auto inside = [&](const fs::path& directory) {
      fs::path relative = root.lexically_relative(directory);
      return !relative.empty() && *relative.begin() != "..";
    };
    if (walked_files_ != nullptr && std::any_of(walked_directories_.begin(), walked_directories_.end(), inside)) {
      std::vector<DiscoveredFile> files;
      for (const DiscoveredFile& file : *walked_files_) {
        if (projects_.root_of(file.path, status_of(file.path, file.plain)) == root) files.push_back(file);
      }
      return files;
    }
  }
  DiscoveryFilter walk_filter = filter(false);
  Discovery discovery = discover({root.string()}, config_for(root).build_extensions, &walk_filter);
  // Files of nested projects belong to those projects.
  std::erase_if(discovery.files, [&](const DiscoveredFile& file) {
    return projects_.root_of(file.path, status_of(file.path, file.plain)) != root;
  });
  return std::move(discovery.files);
}

}  // namespace torchmigrate::engine
