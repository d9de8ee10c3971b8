// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/config.hpp"

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

#include "torchmigrate/buildfiles/toml_guard.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/working_directory.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 19> kKeys = {"cache-dir",
                                                    "exclude",
                                                    "extend",
                                                    "extend-exclude",
                                                    "extend-fixable",
                                                    "extend-select",
                                                    "extension",
                                                    "fixable",
                                                    "ignore",
                                                    "max-file-size-mb",
                                                    "min-torch",
                                                    "output-format",
                                                    "per-file-ignores",
                                                    "policy",
                                                    "respect-gitignore",
                                                    "select",
                                                    "target-version",
                                                    "unfixable",
                                                    "include-extensions"};

std::string valid_keys() {
  std::string list;
  for (std::string_view key : kKeys) {
    if (key == "include-extensions") continue;  // accepted spelling of `extension`
    list += (list.empty() ? "" : ", ") + std::string(key);
  }
  return list;
}

// Every message starts `file:line:column:`, like a compiler's, so an editor can jump to it.
std::string located(const fs::path& path, const toml::source_region& where) {
  return path.string() + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) + ": ";
}

class TableReader {
 public:
  TableReader(fs::path path, std::string prefix) : path_(std::move(path)), prefix_(std::move(prefix)) {}

  // `key` is the key as written (`per-file-ignores."tests/**"`); `node` the value it names.
  [[noreturn]] void fail(const toml::node& node, std::string_view key, const std::string& what) const {
    throw ConfigError(located(path_, node.source()) + "`" + prefix_ + std::string(key) + "` " + what);
  }
  [[noreturn]] void fail_at(const toml::source_region& where, const std::string& what) const {
    throw ConfigError(located(path_, where) + what);
  }

  std::vector<std::string> strings(std::string_view key, const toml::node& node) const {
    std::vector<std::string> values;
    const toml::array* array = node.as_array();
    if (array == nullptr) fail(node, key, "must be an array of strings: rule codes or code prefixes");
    for (const toml::node& item : *array) {
      if (!item.is_string()) fail(item, key, "must be an array of strings: rule codes or code prefixes");
      values.push_back(item.value<std::string>().value());
    }
    return values;
  }

  std::string string(std::string_view key, const toml::node& node) const {
    if (!node.is_string()) fail(node, key, "must be a string");
    return node.value<std::string>().value();
  }

  const toml::table& table(std::string_view key, const toml::node& node, const char* example) const {
    const toml::table* table = node.as_table();
    if (table == nullptr) fail(node, key, std::string("must be a table, e.g. ") + example);
    return *table;
  }

  const std::string& prefix() const { return prefix_; }

 private:
  fs::path path_;
  std::string prefix_;  // "tool.torchmigrate." in pyproject.toml
};

std::vector<std::string> checked_selectors(const TableReader& reader, std::string_view key, const toml::node& node,
                                           const Catalog& catalog) {
  std::vector<std::string> selectors = reader.strings(key, node);
  const toml::array& items = *node.as_array();
  for (size_t i = 0; i < selectors.size(); ++i) {
    selectors[i] = normalize_selector(selectors[i]);
    try {
      validate_selector(selectors[i], catalog);
    } catch (const std::invalid_argument& error) {
      reader.fail(*items.get(i), key, std::string("has an ") + error.what());
    }
  }
  return selectors;
}

// What a glob written for git's wildmatch must not be: empty, a `[` that never closes (which
// would match nothing, silently), or a trailing lone backslash.
std::string glob_problem(std::string_view glob) {
  if (glob.empty()) return "is empty";
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      if (++i == glob.size()) return "ends with a lone `\\`";
    } else if (glob[i] == '[') {
      size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
      if (j < glob.size() && glob[j] == ']') ++j;  // a `]` first in the class is literal
      while (j < glob.size() && glob[j] != ']') j += glob[j] == '\\' ? 2 : 1;
      if (j >= glob.size()) return "has a `[` without a closing `]`";
      i = j;
    }
  }
  return {};
}

std::vector<RootedGlob> checked_globs(const TableReader& reader, std::string_view key, const toml::node& node,
                                      const fs::path& root) {
  std::vector<std::string> globs = reader.strings(key, node);
  const toml::array& items = *node.as_array();
  std::vector<RootedGlob> rooted;
  for (size_t i = 0; i < globs.size(); ++i) {
    std::string problem = glob_problem(globs[i]);
    if (!problem.empty()) reader.fail(*items.get(i), key, "has the glob `" + globs[i] + "`, which " + problem);
    rooted.push_back({root, globs[i]});
  }
  return rooted;
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

std::string_view language_name(Language language) {
  switch (language) {
    case Language::Python: return "Python";
    case Language::Cxx: return "C/C++/CUDA";
    case Language::BuildFile: return "build-file";
    case Language::Notebook: return "notebook";
    case Language::Unknown: break;
  }
  return "unknown";
}

// `[extension]`: each entry adds a file ending to a front. An ending a front already reads
// cannot be moved to another one: `py = "cxx"` would silently stop every Python check.
void read_extensions(const TableReader& reader, std::string_view key, const toml::node& node, ConfigFile& config) {
  for (const auto& [extension, language] : reader.table(key, node, "{ pyw = \"python\" }")) {
    std::string name(extension.str());
    std::string entry = std::string(key) + "." + name;
    if (name.starts_with('.')) name.erase(0, 1);
    if (name.empty() || name.find_first_of("./\\*?[ \t") != std::string::npos) {
      reader.fail(language, entry, "names the ending `" + std::string(extension.str()) +
                                       "`; an ending is one word after the last dot, such as `pyw`");
    }
    std::string front = reader.string(entry, language);
    Language target = Language::Unknown;
    std::optional<buildfiles::FileKind> kind;
    if (front == "python") {
      target = Language::Python;
    } else if (front == "cxx" || front == "c++" || front == "cuda") {
      target = Language::Cxx;
    } else if ((kind = buildfiles::parse_kind(front))) {
      target = Language::BuildFile;
    } else {
      reader.fail(language, entry, "maps `" + name + "` to `" + front + "`; expected one of: " + extension_choices());
    }
    fs::path sample = "file." + name;
    Language builtin = language_for(sample);
    if (builtin != Language::Unknown &&
        (builtin != target || (kind && buildfiles::kind_for(sample) != *kind))) {
      reader.fail(language, entry, "maps `" + name + "`, a " + std::string(language_name(builtin)) +
                                       " ending, to `" + front + "`; that would stop those files from being checked as " +
                                       std::string(language_name(builtin)) + " (only new endings can be added)");
    }
    config.extensions[name] = target;
    // Build files are parsed by kind: the ending says which syntax to read.
    if (kind) config.build_extensions["." + name] = *kind;
  }
}

// `cache-dir` in a configuration file must stay inside the project (the file's directory):
// `".."`, `""` or an absolute path would let a checked-out repository write anywhere. Only
// --cache-dir or TORCHMIGRATE_CACHE_DIR may name a directory elsewhere.
std::string cache_dir_problem(const std::string& directory) {
  if (directory.empty()) return "is empty";
  fs::path path(directory);
  if (path.is_absolute() || path.has_root_name() || path.has_root_directory()) {
    return "is absolute; a configuration file may only name a directory inside the project (use --cache-dir or " +
           std::string("TORCHMIGRATE_CACHE_DIR for one elsewhere)");
  }
  fs::path normal = path.lexically_normal();
  if (normal.empty() || normal == "." || normal == "./" || *normal.begin() == "..") {
    return "is `" + directory + "`, which is not inside the project; use a subdirectory such as \".torchmigrate_cache\"";
  }
  return {};
}

// `entry` names `code`, which is no rule with a keep-old/adopt-new choice. The choices come from
// the catalog, so a new changed-default rule is named too.
[[noreturn]] void fail_no_policy_choice(const TableReader& reader, const toml::node& node, std::string_view entry,
                                        std::string_view code, const Catalog& catalog) {
  std::string with_choice;
  for (const RuleSpec& rule : catalog.rules()) {
    if (rule.fix_policies) with_choice += (with_choice.empty() ? "" : ", ") + rule.code;
  }
  std::string named(code);
  reader.fail(node, entry,
              "names `" + named + "`, which is not a rule with a keep-old/adopt-new choice (" + with_choice + ")");
}

// One policy entry, `node` its value, through validate_policy, worded for the file.
FixPolicy checked_policy(const TableReader& reader, std::string_view entry, std::string_view code,
                         const toml::node& node, const Catalog& catalog) {
  try {
    // A value that is not a string reads as "", so the code is still checked first.
    return validate_policy(code, node.is_string() ? *node.value<std::string>() : std::string(), catalog);
  } catch (const PolicyError& error) {
    if (error.problem != PolicyError::Problem::InvalidValue) fail_no_policy_choice(reader, node, entry, code, catalog);
    (void)reader.string(entry, node);  // "must be a string" comes before "invalid policy"
    reader.fail(node, entry, error.what());
  }
}

// `policy`: "keep-old" or "adopt-new" for every rule, or a table CODE = policy.
void read_policy(const TableReader& reader, std::string_view key, const toml::node& value, const Catalog& catalog,
                 ConfigFile& config) {
  if (value.is_string()) {
    config.policy["ALL"] = checked_policy(reader, key, "ALL", value, catalog);
    return;
  }
  const toml::table* policies = value.as_table();
  if (policies == nullptr) reader.fail(value, key, "must be \"keep-old\", \"adopt-new\" or a table CODE = policy");
  for (const auto& [code, policy] : *policies) {
    std::string entry = "policy." + std::string(code.str());
    // ALL is the string form's: in the table every key must be a rule.
    if (code.str() == "ALL") fail_no_policy_choice(reader, policy, entry, code.str(), catalog);
    config.policy[std::string(code.str())] = checked_policy(reader, entry, code.str(), policy, catalog);
  }
}

void read_per_file_ignores(const TableReader& reader, std::string_view key, const toml::node& value,
                           const Catalog& catalog, ConfigFile& config) {
  for (const auto& [glob, codes] : reader.table(key, value, "{ \"tests/**\" = [CODES] }")) {
    std::string entry = "per-file-ignores.\"" + std::string(glob.str()) + "\"";
    std::string problem = glob_problem(glob.str());
    if (!problem.empty()) reader.fail(codes, entry, "is not a usable glob: it " + problem);
    std::vector<std::string> selectors = checked_selectors(reader, entry, codes, catalog);
    if (selectors.empty()) reader.fail(codes, entry, "is empty; list the rule codes or code prefixes to ignore");
    config.per_file_ignores.emplace_back(RootedGlob{config.root, std::string(glob.str())}, std::move(selectors));
  }
}

// The keys about rules: which run, which fixes, the torch range. False for any other key.
bool read_rule_key(const TableReader& reader, std::string_view key, const toml::node& value, const Catalog& catalog,
                   ConfigFile& config) {
  if (key == "select") {
    config.select = checked_selectors(reader, key, value, catalog);
  } else if (key == "extend-select") {
    config.extend_select = checked_selectors(reader, key, value, catalog);
  } else if (key == "ignore") {
    config.ignore = checked_selectors(reader, key, value, catalog);
  } else if (key == "fixable") {
    config.fixable = checked_selectors(reader, key, value, catalog);
  } else if (key == "unfixable") {
    config.unfixable = checked_selectors(reader, key, value, catalog);
  } else if (key == "extend-fixable") {
    config.extend_fixable = checked_selectors(reader, key, value, catalog);
  } else if (key == "per-file-ignores") {
    read_per_file_ignores(reader, key, value, catalog, config);
  } else if (key == "policy") {
    read_policy(reader, key, value, catalog, config);
  } else if (key == "min-torch") {
    std::string version = reader.string(key, value);
    try {
      parse_min_torch(version);
    } catch (const std::invalid_argument& error) {
      reader.fail(value, key, error.what());
    }
    config.min_torch = version;
  } else if (key == "target-version") {
    std::string version = reader.string(key, value);
    try {
      (void)catalog.parse_target(version);
    } catch (const std::invalid_argument& error) {
      reader.fail(value, key, error.what());
    }
    config.target_version = version;
  } else {
    return false;
  }
  return true;
}

// The keys about files and the run: which files, how big, what the report and cache are. False
// for any other key.
bool read_file_key(const TableReader& reader, std::string_view key, const toml::node& value, ConfigFile& config) {
  if (key == "extend") {
    std::string base = reader.string(key, value);
    if (base.empty()) reader.fail(value, key, "is empty; name the configuration file to extend, e.g. \"../base.toml\"");
    config.extend = base;
  } else if (key == "exclude") {
    config.exclude = checked_globs(reader, key, value, config.root);
  } else if (key == "extend-exclude") {
    config.extend_exclude = checked_globs(reader, key, value, config.root);
  } else if (key == "extension" || key == "include-extensions") {
    read_extensions(reader, key, value, config);
  } else if (key == "max-file-size-mb") {
    std::optional<int64_t> megabytes = value.value<int64_t>();
    if (!value.is_integer() || !megabytes || *megabytes < 0) {
      reader.fail(value, key, "must be a whole number of megabytes, or 0 for no limit (default 4)");
    }
    config.max_file_size_mb = static_cast<size_t>(*megabytes);
  } else if (key == "respect-gitignore") {
    if (!value.is_boolean()) reader.fail(value, key, "must be true or false");
    config.respect_gitignore = value.value<bool>().value();
  } else if (key == "output-format") {
    std::string format = reader.string(key, value);
    if (std::find(kOutputFormatNames.begin(), kOutputFormatNames.end(), format) == kOutputFormatNames.end()) {
      reader.fail(value, key, "is `" + format + "`; expected one of: " + output_format_choices());
    }
    config.output_format = format;
  } else if (key == "cache-dir") {
    std::string directory = reader.string(key, value);
    std::string problem = cache_dir_problem(directory);
    if (!problem.empty()) reader.fail(value, key, problem);
    config.cache_dir = directory;
    config.cache_dir_root = config.root;
  } else {
    return false;
  }
  return true;
}

ConfigFile parse_table(const toml::table& table, const fs::path& path, const std::string& prefix,
                       const Catalog& catalog) {
  ConfigFile config;
  config.path = path;
  std::error_code error;
  config.root = fs::absolute(path.parent_path().empty() ? fs::path(".") : path.parent_path(), error).lexically_normal();
  TableReader reader(path, prefix);
  for (const auto& [key_node, value] : table) {
    std::string_view key = key_node.str();
    if (!read_rule_key(reader, key, value, catalog, config) && !read_file_key(reader, key, value, config)) {
      reader.fail_at(key_node.source(), "unknown key `" + reader.prefix() + std::string(key) +
                                            "`; valid keys: " + valid_keys());
    }
  }
  return config;
}

std::string read_all(std::ifstream& in) {
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Does a pyproject.toml that is not valid TOML speak to torchmigrate? Then its error is ours
// to report; otherwise it belongs to other tools and cannot configure this one.
bool mentions_torchmigrate(const fs::path& pyproject) {
  std::ifstream in(pyproject, std::ios::binary);
  return read_all(in).find("torchmigrate") != std::string::npos;
}

// toml::parse_file, with the text checked first (buildfiles/toml_guard.hpp: what toml++ must
// not be given). A file that cannot be read is left to toml::parse_file, whose error says so.
toml::table parse_toml_file(const fs::path& path) {
  std::error_code error;
  std::ifstream in(path, std::ios::binary);
  if (!in || !fs::is_regular_file(path, error)) return toml::parse_file(path.string());
  std::string text = read_all(in);
  buildfiles::refuse_unsafe_toml(text, path.string());
  return toml::parse(text, path.string());
}

toml::table parse_toml(const fs::path& path) {
  try {
    return parse_toml_file(path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(located(path, error.source()) + "invalid TOML: " + std::string(error.description()));
  }
}

// A pyproject.toml configures torchmigrate when it has a `tool.torchmigrate` entry, or when it
// is broken and mentions torchmigrate (so the mistake is reported, not silently skipped).
bool configures_torchmigrate(const fs::path& pyproject) {
  try {
    toml::table table = parse_toml_file(pyproject);
    return table["tool"]["torchmigrate"].node() != nullptr;
  } catch (const toml::parse_error&) {
    return mentions_torchmigrate(pyproject);
  }
}

}  // namespace

TorchVersion parse_min_torch(std::string_view text) {
  TorchVersion version = TorchVersion::parse(text);
  if (std::count(text.begin(), text.end(), '.') > 1) {
    throw std::invalid_argument("`" + std::string(text) + "` names a patch release; write `" + version.str() +
                                "`: torchmigrate decides by minor release, so every " + version.str() +
                                ".x is the same to it");
  }
  return version;
}

ConfigFile read_inline_config(const std::string& toml_text, const Catalog& catalog) {
  const fs::path origin("--config");
  toml::table table;
  try {
    buildfiles::refuse_unsafe_toml(toml_text, origin.string());
    table = toml::parse(toml_text, origin.string());
  } catch (const toml::parse_error& error) {
    throw ConfigError(located(origin, error.source()) + "`" + toml_text + "` is neither a configuration file nor " +
                      "`KEY = VALUE` in TOML (" + std::string(error.description()) +
                      "); quote strings and lists: --config 'select = [\"TM2\"]'");
  }
  ConfigFile config = parse_table(table, origin, "", catalog);
  std::error_code error;
  config.root = fs::current_path(error);
  if (config.extend) throw ConfigError("--config: `extend` names a file to build on; pass that file as --config PATH");
  return config;
}

std::optional<ConfigFile> read_config_file(const fs::path& path, const Catalog& catalog) {
  toml::table table = parse_toml(path);
  if (path.filename() == "pyproject.toml") {
    toml::node_view<toml::node> tool = table["tool"];
    toml::node_view<toml::node> section = tool["torchmigrate"];
    if (!section) return std::nullopt;
    if (!section.is_table()) {
      throw ConfigError(located(path, section.node()->source()) +
                        "`tool.torchmigrate` must be a table ([tool.torchmigrate] with keys such as select)");
    }
    return parse_table(*section.as_table(), path, "tool.torchmigrate.", catalog);
  }
  return parse_table(table, path, "", catalog);
}

namespace {

// The configuration file of `directory` itself, if it has one. `last` is set when the search
// must not go further up: a file above the repository belongs to someone else, so a stray
// torchmigrate.toml in a parent directory must not configure (or silence) a checkout.
std::optional<fs::path> config_file_in(const fs::path& directory, DirectoryListings& listings, bool& last) {
  const std::string& name_of_directory = directory.native();
  // Within one directory: .torchmigrate.toml, then torchmigrate.toml, then pyproject.toml.
  for (const char* name : {".torchmigrate.toml", "torchmigrate.toml"}) {
    if (listings.has_regular_file(name_of_directory, name)) return directory / name;
  }
  if (listings.has_regular_file(name_of_directory, "pyproject.toml") &&
      configures_torchmigrate(directory / "pyproject.toml")) {
    return directory / "pyproject.toml";
  }
  // A repository's `.git`: a directory, or a file in a worktree or submodule.
  last =
      listings.has(name_of_directory, ".git") || !directory.has_parent_path() || directory.parent_path() == directory;
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> find_config_file(const fs::path& directory) {
  std::error_code error;
  fs::path current = fs::absolute(directory, error).lexically_normal();
  DirectoryListings listings;
  for (;; current = current.parent_path()) {
    bool last = false;
    if (std::optional<fs::path> found = config_file_in(current, listings, last); found || last) return found;
  }
}

namespace {

// `file` relative to `root`, `/`-separated; outside it, just the file name, so a pattern
// without `/` still matches there.
std::string relative_to(const fs::path& file, const fs::path& root) {
  std::error_code error;
  fs::path absolute = absolute_path(file).lexically_normal();
  std::string relative = absolute.lexically_relative(root).generic_string();
  if (relative.empty() || relative.starts_with("..")) relative = absolute.filename().generic_string();
  return relative;
}

}  // namespace

std::vector<std::string> ResolvedConfig::ignored_for(const fs::path& file) const {
  std::vector<std::string> codes;
  for (const PerFileIgnore& entry : per_file_ignores) {
    if (entry.globs.matches(relative_to(file, entry.root))) codes.insert(codes.end(), entry.codes.begin(), entry.codes.end());
  }
  return codes;
}

bool ResolvedConfig::excluded(const fs::path& path) const {
  for (const auto& [directory, globs] : exclude) {
    if (globs.matches(relative_to(path, directory))) return true;
  }
  return false;
}

Language ResolvedConfig::language_for(const fs::path& path) const {
  std::string extension = path.extension().string();
  if (!extension.empty()) {
    auto it = extensions.find(extension.substr(1));
    if (it != extensions.end()) return it->second;
  }
  return engine::language_for(path);
}

ConfigResolver::ConfigResolver(const Catalog& catalog, CliOverrides overrides, std::optional<fs::path> explicit_config,
                               bool isolated, DirectoryListings* listings)
    : catalog_(catalog),
      overrides_(std::move(overrides)),
      explicit_config_(std::move(explicit_config)),
      isolated_(isolated),
      listings_(listings != nullptr ? *listings : own_listings_) {}

const ResolvedConfig& ConfigResolver::for_path(const fs::path& path) {
  std::error_code error;
  return for_directory(fs::is_directory(path, error) ? path.string() : path.parent_path().string());
}

const ResolvedConfig& ConfigResolver::for_directory(const std::string& directory) {
  std::lock_guard lock(mutex_);
  if (isolated_) return resolve(std::nullopt);
  if (explicit_config_) return resolve(explicit_config_);
  std::string_view given = directory.empty() ? std::string_view(".") : std::string_view(directory);
  std::optional<std::string> plain = plain_absolute(given);
  return resolve(config_file_of(plain ? fs::path(std::move(*plain)) : absolute_path(given).lexically_normal()));
}

// find_config_file with every directory's answer remembered: a directory below one already
// asked about costs its own look-ups only, not its ancestors' again.
std::optional<fs::path> ConfigResolver::config_file_of(const fs::path& directory) {
  std::vector<fs::path> asked;
  std::optional<fs::path> found;
  for (fs::path current = directory;; current = current.parent_path()) {
    if (auto it = directory_cache_.find(current.native()); it != directory_cache_.end()) {
      if (it->second) found = fs::path(*it->second);
      break;
    }
    asked.push_back(current);
    bool last = false;
    found = config_file_in(current, listings_, last);
    if (found || last) break;
  }
  std::optional<std::string> remembered = found ? std::optional<std::string>(found->native()) : std::nullopt;
  for (const fs::path& below : asked) directory_cache_.emplace(below.native(), remembered);
  return found;
}

std::vector<const ResolvedConfig*> ConfigResolver::resolved() const {
  std::vector<const ResolvedConfig*> out;
  for (const auto& [key, config] : configs_) out.push_back(config.get());
  return out;
}

namespace {

// Which rules run: the command line's selection over the file's (`file` null: none). --select
// replaces the file's, the others extend it.
void resolve_selection(const CliOverrides& overrides, const ConfigFile* file, RuleSelection& selection) {
  if (!overrides.select.empty()) {
    selection.select = overrides.select;
  } else if (file && file->select) {
    selection.select = *file->select;
  }
  if (file) selection.extend_select = file->extend_select;
  selection.extend_select.insert(selection.extend_select.end(), overrides.extend_select.begin(),
                                 overrides.extend_select.end());
  if (file) selection.ignore = file->ignore;
  if (overrides.select.empty() && file && file->select && file->select->empty()) {
    // `select = []` selects nothing, as in Ruff (an empty selection otherwise means the
    // defaults): every rule is selected and ignored at the same, weakest specificity, so only
    // a more specific extend-select enables anything.
    selection.select = {"ALL"};
    selection.ignore.insert(selection.ignore.begin(), "ALL");
  }
  selection.ignore.insert(selection.ignore.end(), overrides.ignore.begin(), overrides.ignore.end());
}

// The supported range and the target, each with where it came from.
void resolve_torch_range(const CliOverrides& overrides, const ConfigFile* file, const Catalog& catalog,
                         ResolvedConfig& resolved) {
  Settings& settings = resolved.settings;
  if (overrides.min_torch) {
    settings.min_torch = TorchVersion::parse(*overrides.min_torch);
    resolved.min_torch_source = "--min-torch";
  } else if (file && file->min_torch) {
    settings.min_torch = TorchVersion::parse(*file->min_torch);
    resolved.min_torch_source = file->path.string() + " (min-torch)";
  }
  if (overrides.target_version) {
    settings.target = catalog.parse_target(*overrides.target_version);
    resolved.target_source = "--target-version";
    resolved.target_latest = *overrides.target_version == "latest";
  } else if (file && file->target_version) {
    settings.target = catalog.parse_target(*file->target_version);
    resolved.target_source = file->path.string() + " (target-version)";
    resolved.target_latest = *file->target_version == "latest";
  }
}

// Which fixes apply, and how: policies, unsafe fixes, fixable and unfixable rules.
void resolve_fixes(const CliOverrides& overrides, const ConfigFile* file, Settings& settings) {
  if (file) settings.policies = file->policy;
  for (const auto& [code, policy] : overrides.policy) settings.policies[code] = policy;
  settings.unsafe_fixes = overrides.unsafe_fixes;
  if (overrides.fixable) {
    settings.fixable = *overrides.fixable;
  } else if (file && file->fixable) {
    settings.fixable = *file->fixable;
    // `fixable = []`: no rule may fix (an empty list otherwise means all).
    if (settings.fixable.empty()) settings.unfixable.push_back("ALL");
  }
  if (file) settings.unfixable.insert(settings.unfixable.end(), file->unfixable.begin(), file->unfixable.end());
  settings.unfixable.insert(settings.unfixable.end(), overrides.unfixable.begin(), overrides.unfixable.end());
  if (file) settings.extend_fixable = file->extend_fixable;
  settings.extend_fixable.insert(settings.extend_fixable.end(), overrides.extend_fixable.begin(),
                                 overrides.extend_fixable.end());
  settings.ignore_noqa = overrides.ignore_noqa;
}

// Excluded files and per-file ignores. Globs are grouped by the directory they are relative to.
void resolve_globs(const CliOverrides& overrides, const ConfigFile* file, ResolvedConfig& resolved) {
  std::vector<RootedGlob> exclude;
  if (overrides.exclude) {
    exclude = *overrides.exclude;
  } else if (file && file->exclude) {
    exclude = *file->exclude;
  }
  if (file) exclude.insert(exclude.end(), file->extend_exclude.begin(), file->extend_exclude.end());
  exclude.insert(exclude.end(), overrides.extend_exclude.begin(), overrides.extend_exclude.end());
  std::map<fs::path, std::vector<std::string>> exclude_by_root;
  for (const RootedGlob& glob : exclude) exclude_by_root[glob.root].push_back(glob.pattern);
  for (auto& [directory, patterns] : exclude_by_root) {
    resolved.exclude.emplace_back(directory, GlobSet(std::move(patterns)));
  }
  std::vector<std::pair<RootedGlob, std::vector<std::string>>> per_file_ignores;
  if (file) per_file_ignores = file->per_file_ignores;
  per_file_ignores.insert(per_file_ignores.end(), overrides.per_file_ignores.begin(), overrides.per_file_ignores.end());
  for (const auto& [glob, codes] : per_file_ignores) {
    resolved.per_file_ignores.push_back({glob.root, GlobSet({glob.pattern}), codes});
  }
}

// What only a file sets: extra file endings, the report format, the cache directory.
void take_file_settings(const ConfigFile& file, ResolvedConfig& resolved) {
  resolved.extensions = file.extensions;
  resolved.build_extensions = file.build_extensions;
  resolved.settings.build_extensions = file.build_extensions;
  resolved.output_format = file.output_format;
  if (file.cache_dir) {
    resolved.cache_dir = (file.cache_dir_root / *file.cache_dir).lexically_normal().string();
    resolved.cache_dir_root = file.cache_dir_root;
  }
}

}  // namespace

const ResolvedConfig& ConfigResolver::resolve(const std::optional<fs::path>& config_path) {
  std::string key = config_path ? config_path->string() : std::string();
  if (auto it = configs_.find(key); it != configs_.end()) return *it->second;

  std::optional<ConfigFile> file;
  if (config_path) {
    std::error_code error;
    if (!fs::is_regular_file(*config_path, error)) {
      throw ConfigError(config_path->string() + ": no such configuration file");
    }
    file = read_config_chain(*config_path, catalog_);
    if (!file && explicit_config_) {
      throw ConfigError(config_path->string() + ": has no [tool.torchmigrate] section");
    }
  }
  auto resolved = std::make_unique<ResolvedConfig>();
  std::error_code error;
  resolved->source = file ? std::optional<fs::path>(file->path) : std::nullopt;
  if (file) resolved->bases = file->bases;
  resolved->root = file ? fs::absolute(file->root, error).lexically_normal() : fs::current_path(error);
  if (overrides_.inline_config) {
    const ConfigFile& laid = *overrides_.inline_config;
    ConfigFile merged = merge_config(file ? *file : ConfigFile(), laid);
    // Where min-torch and target-version came from: `--config` only when it set them.
    if (file && !laid.min_torch && !laid.target_version) merged.path = file->path;
    file = std::move(merged);
  }

  const ConfigFile* read = file ? &*file : nullptr;
  resolve_selection(overrides_, read, resolved->settings.selection);
  resolve_torch_range(overrides_, read, catalog_, *resolved);
  if (file && file->max_file_size_mb) resolved->settings.max_file_bytes = *file->max_file_size_mb << 20;
  resolve_fixes(overrides_, read, resolved->settings);
  resolve_globs(overrides_, read, *resolved);
  if (file) take_file_settings(*file, *resolved);
  resolved->respect_gitignore = overrides_.respect_gitignore.value_or(
      file && file->respect_gitignore ? *file->respect_gitignore : true);
  return *configs_.emplace(key, std::move(resolved)).first->second;
}

}  // namespace torchmigrate::engine
