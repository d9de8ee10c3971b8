// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/config.hpp"

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include <algorithm>
#include <array>

#include "torchmigrate/engine/discovery.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 13> kKeys = {
    "cache-dir",      "exclude",     "extend-exclude", "extend-select",     "extension", "ignore", "min-torch",
    "output-format",  "per-file-ignores", "policy",    "respect-gitignore", "select",    "include-extensions"};

std::string valid_keys() {
  std::string list;
  for (std::string_view key : kKeys) {
    if (key == "include-extensions") continue;  // accepted spelling of `extension`
    list += (list.empty() ? "" : ", ") + std::string(key);
  }
  return list;
}

class TableReader {
 public:
  TableReader(const toml::table& table, std::string where) : table_(table), where_(std::move(where)) {}

  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    throw ConfigError(where_ + ": `" + std::string(key) + "` " + what);
  }

  std::vector<std::string> strings(std::string_view key, const toml::node& node) const {
    std::vector<std::string> values;
    const toml::array* array = node.as_array();
    if (array == nullptr) fail(key, "must be an array of strings");
    for (const toml::node& item : *array) {
      if (!item.is_string()) fail(key, "must be an array of strings");
      values.push_back(item.value<std::string>().value());
    }
    return values;
  }

  std::string string(std::string_view key, const toml::node& node) const {
    if (!node.is_string()) fail(key, "must be a string");
    return node.value<std::string>().value();
  }

  const toml::table& table() const { return table_; }

 private:
  const toml::table& table_;
  std::string where_;
};

std::vector<std::string> checked_selectors(const TableReader& reader, std::string_view key, const toml::node& node,
                                           const Catalog& catalog) {
  std::vector<std::string> selectors = reader.strings(key, node);
  for (const std::string& selector : selectors) {
    try {
      validate_selector(selector, catalog);
    } catch (const std::invalid_argument& error) {
      reader.fail(key, std::string("has an ") + error.what());
    }
  }
  return selectors;
}

std::string extension_choices() {
  std::string list = "python, cxx";
  for (buildfiles::FileKind kind : {buildfiles::FileKind::Dockerfile, buildfiles::FileKind::Shell,
                                    buildfiles::FileKind::Yaml, buildfiles::FileKind::CondaEnvironment,
                                    buildfiles::FileKind::CMake, buildfiles::FileKind::Makefile,
                                    buildfiles::FileKind::Toml, buildfiles::FileKind::Ini,
                                    buildfiles::FileKind::Requirements, buildfiles::FileKind::DotEnv,
                                    buildfiles::FileKind::Batch, buildfiles::FileKind::Singularity}) {
    list += ", " + std::string(buildfiles::to_string(kind));
  }
  return list;
}

ConfigFile parse_table(const toml::table& table, const fs::path& path, const std::string& where,
                       const Catalog& catalog) {
  ConfigFile config;
  config.path = path;
  config.root = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  TableReader reader(table, where);
  for (const auto& [key_node, value] : table) {
    std::string_view key = key_node.str();
    if (key == "select") {
      config.select = checked_selectors(reader, key, value, catalog);
    } else if (key == "extend-select") {
      config.extend_select = checked_selectors(reader, key, value, catalog);
    } else if (key == "ignore") {
      config.ignore = checked_selectors(reader, key, value, catalog);
    } else if (key == "per-file-ignores") {
      const toml::table* globs = value.as_table();
      if (globs == nullptr) reader.fail(key, "must be a table of glob = [codes]");
      for (const auto& [glob, codes] : *globs) {
        config.per_file_ignores.emplace_back(std::string(glob.str()),
                                             checked_selectors(reader, "per-file-ignores." + std::string(glob.str()),
                                                               codes, catalog));
      }
    } else if (key == "exclude") {
      config.exclude = reader.strings(key, value);
    } else if (key == "extend-exclude") {
      config.extend_exclude = reader.strings(key, value);
    } else if (key == "extension" || key == "include-extensions") {
      const toml::table* extensions = value.as_table();
      if (extensions == nullptr) reader.fail(key, "must be a table of extension = front, e.g. pyw = \"python\"");
      for (const auto& [extension, language] : *extensions) {
        std::string name(extension.str());
        if (name.starts_with('.')) name.erase(0, 1);
        std::string front = reader.string(key, language);
        if (front == "python") {
          config.extensions[name] = Language::Python;
        } else if (front == "cxx" || front == "c++" || front == "cuda") {
          config.extensions[name] = Language::Cxx;
        } else if (std::optional<buildfiles::FileKind> kind = buildfiles::parse_kind(front)) {
          // Build files are parsed by kind: the ending says which syntax to read.
          config.extensions[name] = Language::BuildFile;
          config.build_extensions["." + name] = *kind;
        } else {
          reader.fail(key, "maps `" + name + "` to `" + front + "`; expected one of: " + extension_choices());
        }
      }
    } else if (key == "min-torch") {
      std::string version = reader.string(key, value);
      try {
        TorchVersion::parse(version);
      } catch (const std::invalid_argument& error) {
        reader.fail(key, error.what());
      }
      config.min_torch = version;
    } else if (key == "policy") {
      auto policy_of = [&](const toml::node& node) {
        try {
          return parse_policy(reader.string(key, node));
        } catch (const std::invalid_argument& error) {
          reader.fail(key, error.what());
        }
      };
      if (value.is_string()) {
        config.policy["ALL"] = policy_of(value);
      } else if (const toml::table* policies = value.as_table()) {
        for (const auto& [code, policy] : *policies) {
          const RuleSpec* rule = catalog.find(code.str());
          if (rule == nullptr || !rule->fix_policies) {
            reader.fail(key, "names `" + std::string(code.str()) +
                                 "`, which is not a rule with a keep-old/adopt-new choice (TM201, TM202, TM302)");
          }
          config.policy[std::string(code.str())] = policy_of(policy);
        }
      } else {
        reader.fail(key, "must be \"keep-old\", \"adopt-new\" or a table CODE = policy");
      }
    } else if (key == "respect-gitignore") {
      if (!value.is_boolean()) reader.fail(key, "must be true or false");
      config.respect_gitignore = value.value<bool>().value();
    } else if (key == "output-format") {
      std::string format = reader.string(key, value);
      static const std::array<std::string_view, 9> kFormats = {"concise", "full", "json", "json-lines", "sarif",
                                                                 "github",  "gitlab", "junit", "grouped"};
      if (std::find(kFormats.begin(), kFormats.end(), format) == kFormats.end()) {
        reader.fail(key, "is `" + format + "`; expected one of: concise, full, json, json-lines, sarif, github, gitlab, junit");
      }
      config.output_format = format;
    } else if (key == "cache-dir") {
      config.cache_dir = reader.string(key, value);
    } else {
      throw ConfigError(where + ": unknown key `" + std::string(key) + "`; valid keys: " + valid_keys());
    }
  }
  return config;
}

bool has_tool_section(const fs::path& pyproject) {
  try {
    toml::table table = toml::parse_file(pyproject.string());
    return table["tool"]["torchmigrate"].as_table() != nullptr;
  } catch (const toml::parse_error&) {
    return false;  // reported when read, if it is the chosen file
  }
}

}  // namespace

std::optional<ConfigFile> read_config_file(const fs::path& path, const Catalog& catalog) {
  toml::table table;
  try {
    table = toml::parse_file(path.string());
  } catch (const toml::parse_error& error) {
    const toml::source_region& where = error.source();
    throw ConfigError(path.string() + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) +
                      ": invalid TOML: " + std::string(error.description()));
  }
  if (path.filename() == "pyproject.toml") {
    const toml::table* section = table["tool"]["torchmigrate"].as_table();
    if (section == nullptr) return std::nullopt;
    return parse_table(*section, path, path.string() + " [tool.torchmigrate]", catalog);
  }
  return parse_table(table, path, path.string(), catalog);
}

std::optional<fs::path> find_config_file(const fs::path& directory) {
  std::error_code error;
  fs::path current = fs::absolute(directory, error).lexically_normal();
  while (true) {
    // Within one directory: .torchmigrate.toml, then torchmigrate.toml, then pyproject.toml.
    for (const char* name : {".torchmigrate.toml", "torchmigrate.toml"}) {
      if (fs::is_regular_file(current / name, error)) return current / name;
    }
    if (fs::is_regular_file(current / "pyproject.toml", error) && has_tool_section(current / "pyproject.toml")) {
      return current / "pyproject.toml";
    }
    if (!current.has_parent_path() || current.parent_path() == current) return std::nullopt;
    current = current.parent_path();
  }
}

std::vector<std::string> ResolvedConfig::ignored_for(const fs::path& file) const {
  std::vector<std::string> codes;
  if (per_file_ignores.empty()) return codes;
  std::error_code error;
  std::string relative = fs::absolute(file, error).lexically_normal().lexically_relative(root).generic_string();
  for (const auto& [globs, ignored] : per_file_ignores) {
    if (globs.matches(relative)) codes.insert(codes.end(), ignored.begin(), ignored.end());
  }
  return codes;
}

bool ResolvedConfig::excluded(const fs::path& path) const {
  if (exclude.empty()) return false;
  std::error_code error;
  fs::path absolute = fs::absolute(path, error).lexically_normal();
  std::string relative = absolute.lexically_relative(root).generic_string();
  // Paths outside the config's directory are matched by their components only.
  if (relative.starts_with("..")) relative = absolute.filename().generic_string();
  return exclude.matches(relative);
}

Language ResolvedConfig::language_for(const fs::path& path) const {
  std::string extension = path.extension().string();
  if (!extension.empty()) {
    auto it = extensions.find(extension.substr(1));
    if (it != extensions.end()) return it->second;
  }
  return engine::language_for(path);
}

ConfigResolver::ConfigResolver(const Catalog& catalog, CliOverrides overrides,
                               std::optional<fs::path> explicit_config, bool isolated)
    : catalog_(catalog), overrides_(std::move(overrides)), explicit_config_(std::move(explicit_config)),
      isolated_(isolated) {}

const ResolvedConfig& ConfigResolver::for_path(const fs::path& path) {
  std::lock_guard lock(mutex_);
  if (isolated_) return resolve(std::nullopt);
  if (explicit_config_) return resolve(explicit_config_);
  std::error_code error;
  fs::path directory = fs::is_directory(path, error) ? path : path.parent_path();
  if (directory.empty()) directory = ".";
  directory = fs::absolute(directory, error).lexically_normal();
  auto it = directory_cache_.find(directory);
  if (it == directory_cache_.end()) it = directory_cache_.emplace(directory, find_config_file(directory)).first;
  return resolve(it->second);
}

std::vector<const ResolvedConfig*> ConfigResolver::resolved() const {
  std::vector<const ResolvedConfig*> out;
  for (const auto& [key, config] : configs_) out.push_back(config.get());
  return out;
}

const ResolvedConfig& ConfigResolver::resolve(const std::optional<fs::path>& config_path) {
  std::string key = config_path ? config_path->string() : std::string();
  if (auto it = configs_.find(key); it != configs_.end()) return *it->second;

  std::optional<ConfigFile> file;
  if (config_path) {
    std::error_code error;
    if (!fs::is_regular_file(*config_path, error)) throw ConfigError(config_path->string() + ": no such configuration file");
    file = read_config_file(*config_path, catalog_);
    if (!file && explicit_config_) {
      throw ConfigError(config_path->string() + ": has no [tool.torchmigrate] section");
    }
  }
  auto resolved = std::make_unique<ResolvedConfig>();
  std::error_code error;
  resolved->source = file ? std::optional<fs::path>(file->path) : std::nullopt;
  resolved->root = file ? fs::absolute(file->root, error).lexically_normal() : fs::current_path(error);

  // Command-line selection overrides the file's: --select replaces, the others extend.
  Settings& settings = resolved->settings;
  if (!overrides_.select.empty()) {
    settings.selection.select = overrides_.select;
  } else if (file && file->select) {
    settings.selection.select = *file->select;
  }
  if (file) settings.selection.extend_select = file->extend_select;
  settings.selection.extend_select.insert(settings.selection.extend_select.end(), overrides_.extend_select.begin(),
                                          overrides_.extend_select.end());
  if (file) settings.selection.ignore = file->ignore;
  settings.selection.ignore.insert(settings.selection.ignore.end(), overrides_.ignore.begin(), overrides_.ignore.end());
  if (overrides_.min_torch) {
    settings.min_torch = TorchVersion::parse(*overrides_.min_torch);
    resolved->min_torch_source = "--min-torch";
  } else if (file && file->min_torch) {
    settings.min_torch = TorchVersion::parse(*file->min_torch);
    resolved->min_torch_source = file->path.string() + " (min-torch)";
  }
  if (file) settings.policies = file->policy;
  for (const auto& [code, policy] : overrides_.policy) settings.policies[code] = policy;
  settings.unsafe_fixes = overrides_.unsafe_fixes;

  std::vector<std::string> exclude;
  if (file && file->exclude) exclude = *file->exclude;
  if (file) exclude.insert(exclude.end(), file->extend_exclude.begin(), file->extend_exclude.end());
  exclude.insert(exclude.end(), overrides_.extend_exclude.begin(), overrides_.extend_exclude.end());
  resolved->exclude = GlobSet(exclude);
  if (file) {
    for (const auto& [glob, codes] : file->per_file_ignores) {
      resolved->per_file_ignores.emplace_back(GlobSet({glob}), codes);
    }
    resolved->extensions = file->extensions;
    resolved->build_extensions = file->build_extensions;
    resolved->settings.build_extensions = file->build_extensions;
    resolved->output_format = file->output_format;
    if (file->cache_dir) resolved->cache_dir = (file->root / *file->cache_dir).lexically_normal().string();
  }
  resolved->respect_gitignore = overrides_.respect_gitignore.value_or(
      file && file->respect_gitignore ? *file->respect_gitignore : true);
  return *configs_.emplace(key, std::move(resolved)).first->second;
}

}  // namespace torchmigrate::engine
