// SPDX-License-Identifier: MIT
// Configuration files: `[tool.torchmigrate]` in pyproject.toml, `torchmigrate.toml` or
// `.torchmigrate.toml`. Read into a plain struct (strictly: unknown keys and bad values are
// errors naming the file, the key and the valid choices), then resolved per checked file.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/workspace/directory_listings.hpp"
#include "torchmigrate/engine/workspace/glob.hpp"

namespace torchmigrate::engine {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A glob and the directory it is relative to: that of the file that wrote it (with `extend`,
// a base file's globs keep their own directory), or the working directory for the command line.
struct RootedGlob {
  std::filesystem::path root;
  std::string pattern;
};

// One configuration file as written, with what it extends merged in (`extend = "../base.toml"`).
struct ConfigFile {
  std::filesystem::path path;  // the file
  std::filesystem::path root;  // its directory; globs are relative to it
  std::optional<std::string> extend;  // the base file as written, relative to `root`
  std::vector<std::filesystem::path> bases;  // the files merged in through `extend`, nearest first
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::optional<std::vector<std::string>> fixable;  // rules whose fixes may apply (default: all)
  std::vector<std::string> unfixable;               // rules whose fixes never apply
  std::vector<std::string> extend_fixable;          // fixable on top of `fixable`
  std::vector<std::pair<RootedGlob, std::vector<std::string>>> per_file_ignores;
  std::optional<std::vector<RootedGlob>> exclude;
  std::vector<RootedGlob> extend_exclude;
  std::map<std::string, Language> extensions;  // "pyw" -> Python
  buildfiles::ExtraExtensions build_extensions;  // ".conf" -> Shell: build files by ending
  std::optional<std::string> min_torch;
  std::optional<std::string> target_version;   // a release of the catalog, or "latest"
  std::optional<size_t> max_file_size_mb;      // 0: no limit
  std::map<std::string, FixPolicy> policy;     // by code, "ALL" for every rule
  std::optional<bool> respect_gitignore;
  std::optional<std::string> output_format;
  std::optional<std::string> cache_dir;
  std::filesystem::path cache_dir_root;  // the directory of the file that set cache-dir
};

// Reads `path`; nullopt for a pyproject.toml without [tool.torchmigrate]. Throws ConfigError.
// `extend` is left as written: read_config_chain follows it.
std::optional<ConfigFile> read_config_file(const std::filesystem::path& path, const Catalog& catalog);
// Reads `path` and the files it extends, merged: the extending file's keys win, and its
// list-extending keys (extend-select, ignore, unfixable, extend-exclude, per-file-ignores,
// extension, policy) add to the base's. A missing base, or a cycle, is a ConfigError.
std::optional<ConfigFile> read_config_chain(const std::filesystem::path& path, const Catalog& catalog);
// The configuration file that applies to files in `directory`: the nearest one above it.
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& directory);

// What the command line says; it overrides the configuration files.
struct CliOverrides {
  std::vector<std::string> select, extend_select, ignore;
  std::optional<std::string> min_torch;
  std::optional<std::string> target_version;
  std::map<std::string, FixPolicy> policy;
  bool unsafe_fixes = false;
  std::optional<bool> respect_gitignore;
  // Globs from the command line are relative to the working directory.
  std::optional<std::vector<RootedGlob>> exclude;  // replaces the file's `exclude`
  std::vector<RootedGlob> extend_exclude;
  std::vector<std::pair<RootedGlob, std::vector<std::string>>> per_file_ignores;  // added to the file's
  std::optional<std::vector<std::string>> fixable;  // replaces the file's
  std::vector<std::string> unfixable;               // added to the file's
  std::vector<std::string> extend_fixable;          // added to the file's
  bool ignore_noqa = false;
  // `--config 'KEY = VALUE'`: keys laid over every configuration file (or none), as if that
  // file were extended by them; globs are relative to the working directory.
  std::optional<ConfigFile> inline_config;
};

// Reads a `min-torch` value: MAJOR.MINOR. A patch release (`2.8.1`) is refused, not cut to 2.8
// silently: the rules decide by minor release, so the patch would promise a precision that no
// verdict has. Throws std::invalid_argument saying what to write.
TorchVersion parse_min_torch(std::string_view text);

// Reads `--config 'KEY = VALUE'` options (TOML, one per line) as a configuration; errors name
// `--config`. Throws ConfigError.
ConfigFile read_inline_config(const std::string& toml_text, const Catalog& catalog);
// `config` laid over `base`, as `extend` does: config's keys win, list-extending keys add.
ConfigFile merge_config(const ConfigFile& base, ConfigFile config);

// A configuration file applied to the command line: what one group of files is checked with.
struct ResolvedConfig {
  std::optional<std::filesystem::path> source;  // the config file, if any
  std::vector<std::filesystem::path> bases;     // what it extends, nearest first
  std::filesystem::path root;                    // directory for globs (config dir or cwd)
  Settings settings;
  std::string min_torch_source;                  // "--min-torch", the config file, or "" (not set)
  std::string target_source;                     // "--target-version", the config file, or "" (default)
  // The target was written `latest`: a project whose oldest supported torch is newer still is
  // checked at that release, as by default, not refused.
  bool target_latest = false;
  std::vector<std::pair<std::filesystem::path, GlobSet>> exclude;  // by the directory they are relative to
  struct PerFileIgnore {
    std::filesystem::path root;
    GlobSet globs;
    std::vector<std::string> codes;
  };
  std::vector<PerFileIgnore> per_file_ignores;
  std::map<std::string, Language> extensions;
  buildfiles::ExtraExtensions build_extensions;
  bool respect_gitignore = true;
  std::optional<std::string> output_format;
  std::optional<std::string> cache_dir;  // absolute
  std::filesystem::path cache_dir_root;   // the cache must stay inside it (the setting file's directory)

  // Codes ignored for this file by per-file-ignores (prefixes allowed).
  [[nodiscard]] std::vector<std::string> ignored_for(const std::filesystem::path& file) const;
  [[nodiscard]] bool excluded(const std::filesystem::path& path) const;
  [[nodiscard]] Language language_for(const std::filesystem::path& path) const;
};

// Resolves the configuration of each checked file, reading each file once.
class ConfigResolver {
 public:
  // `explicit_config` is `--config PATH`; `isolated` ignores every configuration file.
  // `listings`, when given, is shared with the other components that look into directories.
  ConfigResolver(const Catalog& catalog, CliOverrides overrides, std::optional<std::filesystem::path> explicit_config,
                 bool isolated, DirectoryListings* listings = nullptr);

  // Throws ConfigError for a bad file.
  const ResolvedConfig& for_path(const std::filesystem::path& path);
  // for_path of a path known to be a directory ("" is the working directory): no stat.
  const ResolvedConfig& for_directory(const std::string& directory);
  // Every configuration resolved so far (stable addresses).
  [[nodiscard]] std::vector<const ResolvedConfig*> resolved() const;

 private:
  // Absolute, normalised directory; mutex_ held.
  std::optional<std::filesystem::path> config_file_of(const std::filesystem::path& directory);
  const ResolvedConfig& resolve(const std::optional<std::filesystem::path>& config_path);

  const Catalog& catalog_;
  CliOverrides overrides_;
  std::optional<std::filesystem::path> explicit_config_;
  bool isolated_;
  DirectoryListings own_listings_;
  DirectoryListings& listings_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::optional<std::string>> directory_cache_;  // paths as strings: memory
  std::map<std::string, std::unique_ptr<ResolvedConfig>> configs_;  // by config path ("" = none)
};

}  // namespace torchmigrate::engine
