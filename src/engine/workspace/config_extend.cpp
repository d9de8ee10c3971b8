// SPDX-License-Identifier: MIT
// `extend = "../base.toml"`: a configuration file built on another, as in Ruff. The extending
// file's keys win; keys that add to a list add to the base's.
#include <set>

#include "torchmigrate/engine/workspace/config.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

// Bounds a chain that is not a cycle but still absurd (each link is a file read).
constexpr int kMaxExtendDepth = 32;

template <typename T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

ConfigFile merge_config(const ConfigFile& base, ConfigFile config) {
  // A `select` of its own starts the selection afresh, as a later `select` does in Ruff.
  if (!config.select) {
    config.select = base.select;
    std::vector<std::string> extend_select = base.extend_select;
    append(extend_select, config.extend_select);
    config.extend_select = std::move(extend_select);
    std::vector<std::string> ignore = base.ignore;
    append(ignore, config.ignore);
    config.ignore = std::move(ignore);
  }
  if (!config.fixable) config.fixable = base.fixable;
  std::vector<std::string> unfixable = base.unfixable;
  append(unfixable, config.unfixable);
  config.unfixable = std::move(unfixable);
  std::vector<std::string> extend_fixable = base.extend_fixable;
  append(extend_fixable, config.extend_fixable);
  config.extend_fixable = std::move(extend_fixable);
  auto per_file_ignores = base.per_file_ignores;
  append(per_file_ignores, config.per_file_ignores);
  config.per_file_ignores = std::move(per_file_ignores);
  if (!config.exclude) config.exclude = base.exclude;
  std::vector<RootedGlob> extend_exclude = base.extend_exclude;
  append(extend_exclude, config.extend_exclude);
  config.extend_exclude = std::move(extend_exclude);
  for (const auto& [ending, language] : base.extensions) config.extensions.try_emplace(ending, language);
  for (const auto& [ending, kind] : base.build_extensions) config.build_extensions.try_emplace(ending, kind);
  for (const auto& [code, policy] : base.policy) config.policy.try_emplace(code, policy);
  if (!config.min_torch) config.min_torch = base.min_torch;
  if (!config.target_version) config.target_version = base.target_version;
  if (!config.max_file_size_mb) config.max_file_size_mb = base.max_file_size_mb;
  if (!config.respect_gitignore) config.respect_gitignore = base.respect_gitignore;
  if (!config.output_format) config.output_format = base.output_format;
  if (!config.cache_dir) {
    config.cache_dir = base.cache_dir;
    config.cache_dir_root = base.cache_dir_root;
  }
  return config;
}

namespace {

std::optional<ConfigFile> read_chain(const fs::path& path, const Catalog& catalog, std::set<fs::path>& seen) {
  std::optional<ConfigFile> config = read_config_file(path, catalog);
  if (!config || !config->extend) return config;
  std::error_code error;
  fs::path base_path = (config->root / *config->extend).lexically_normal();
  std::string from = path.string() + ": `extend = \"" + *config->extend + "\"`";
  if (!fs::is_regular_file(base_path, error)) throw ConfigError(from + " names no file (" + base_path.string() + ")");
  fs::path canonical = fs::weakly_canonical(base_path, error);
  if (!seen.insert(canonical).second) throw ConfigError(from + " closes a cycle: that file already extends this one");
  if (seen.size() > kMaxExtendDepth) throw ConfigError(from + ": more than 32 files extend one another");
  std::optional<ConfigFile> base = read_chain(base_path, catalog, seen);
  if (!base) throw ConfigError(from + " names a pyproject.toml without a [tool.torchmigrate] table");
  config->bases.push_back(base_path);
  config->bases.insert(config->bases.end(), base->bases.begin(), base->bases.end());
  return merge_config(*base, std::move(*config));
}

}  // namespace

std::optional<ConfigFile> read_config_chain(const fs::path& path, const Catalog& catalog) {
  std::error_code error;
  std::set<fs::path> seen{fs::weakly_canonical(path, error)};
  return read_chain(path, catalog, seen);
}

}  // namespace torchmigrate::engine
