// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/result_cache.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>

#include "embedded_rules.hpp"
#include "torchmigrate/engine/content_hash.hpp"
#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/project.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::engine {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Bumped whenever the layout of an entry changes; older entries then simply miss.
constexpr int kFormat = 3;
constexpr std::string_view kMagic = "torchmigrate-cache";

// The rule catalog as built in, so a rule change invalidates entries.
const std::string& catalog_hash() {
  static const std::string hash = [] {
    std::string all;
    for (const EmbeddedRule& rule : embedded_rules()) all.append(rule.json).append(rule.docs);
    return content_hash(all);
  }();
  return hash;
}

// A path as it is inside the file's project, so a cache on shared storage serves every checkout
// of the project wherever it lies; the path as given for a file outside any project.
std::string portable_path(std::string_view path, const Settings& settings) {
  if (!settings.project || path.empty()) return std::string(path);
  std::error_code error;
  fs::path absolute = fs::absolute(fs::path(path), error).lexically_normal();
  fs::path relative = absolute.lexically_relative(settings.project->root());
  if (relative.empty() || *relative.begin() == "..") {
    relative = fs::weakly_canonical(absolute, error).lexically_relative(settings.project->root());
  }
  if (error || relative.empty() || *relative.begin() == "..") return std::string(path);
  return relative.generic_string();
}

// `path` decides whether the project's facts matter: only build and C/C++ rules read them, and
// asking for them gathers them from the project's tree.
std::string settings_hash(const Settings& settings, std::string_view path) {
  json out{{"select", settings.selection.select},
           {"extend_select", settings.selection.extend_select},
           {"ignore", settings.selection.ignore},
           {"file_ignore", settings.selection.file_ignore},
           {"min_torch", settings.min_torch.str()},
           {"unsafe", settings.unsafe_fixes},
           {"fixable", settings.fixable},
           {"max_file_bytes", settings.max_file_bytes},
           {"unfixable", settings.unfixable},
           {"compile_db", portable_path(settings.compile_database_dir, settings)}};
  // Whether the file has a project; where the project lies is not part of any finding.
  if (settings.project) out["project"] = true;
  std::filesystem::path file(path);
  // setup.py is Python that the build rules read too.
  if (language_for(file, settings.build_extensions) != Language::Python || file.filename() == "setup.py") {
    const ProjectFacts& facts = settings.project_facts();
    out["dynamo_export"] = facts.calls_onnx_dynamo_export;
    out["find_torch"] = facts.cmake_finds_torch;
  }
  for (const auto& [code, policy] : settings.policies) out["policies"][code] = std::string(to_string(policy));
  for (const auto& [ending, kind] : settings.build_extensions) out["build"][ending] = static_cast<int>(kind);
  return content_hash(out.dump());
}

json to_json(const Diagnostic& diagnostic) {
  json fixes = json::array();
  for (const Fix& fix : diagnostic.fixes) {
    json edits = json::array();
    for (const Edit& edit : fix.edits) edits.push_back({edit.range.start, edit.range.end, edit.replacement});
    fixes.push_back({{"title", fix.title},
                     {"edits", edits},
                     {"applicability", static_cast<int>(fix.applicability)},
                     {"requires_torch", fix.compat.torch ? fix.compat.torch->str() : ""},
                     {"imports", fix.imported_modules},
                     {"policy", static_cast<int>(fix.policy)}});
  }
  return {{"code", diagnostic.code},       {"message", diagnostic.message}, {"start", diagnostic.range.start},
          {"end", diagnostic.range.end}, {"severity", static_cast<int>(diagnostic.severity)}, {"fixes", fixes}};
}

// Thrown for any entry that does not verify; the caller treats it as a miss.
struct Rejected {};

void require(bool condition) {
  if (!condition) throw Rejected{};
}

std::string string_at(const json& object, const char* name) {
  const json& value = object.at(name);
  require(value.is_string());
  return value.get<std::string>();
}

uint32_t number_at(const json& value) {
  require(value.is_number_unsigned() && value.get<uint64_t>() <= UINT32_MAX);
  return value.get<uint32_t>();
}

int choice_at(const json& value, int last) {
  require(value.is_number_unsigned() && value.get<uint64_t>() <= static_cast<uint64_t>(last));
  return value.get<int>();
}

// A range must lie inside the text and start and end on character boundaries.
TextRange range_in(std::string_view text, uint32_t start, uint32_t end) {
  require(start <= end && end <= text.size());
  auto boundary = [&](uint32_t at) { return at == text.size() || (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80; };
  require(boundary(start) && boundary(end));
  return {start, end};
}

bool known_code(const std::string& code) {
  return code == kIoErrorCode || code == kParseErrorCode || code == kInternalErrorCode ||
         Catalog::builtin().find(code) != nullptr;
}

Diagnostic from_json(const json& entry, std::string_view text) {
  require(entry.is_object() && entry.size() == 6);
  Diagnostic diagnostic;
  diagnostic.code = string_at(entry, "code");
  require(known_code(diagnostic.code));
  diagnostic.message = string_at(entry, "message");
  diagnostic.range = range_in(text, number_at(entry.at("start")), number_at(entry.at("end")));
  diagnostic.severity = static_cast<Severity>(choice_at(entry.at("severity"), static_cast<int>(Severity::Info)));
  const json& fixes = entry.at("fixes");
  require(fixes.is_array());
  for (const json& fix_json : fixes) {
    require(fix_json.is_object() && fix_json.size() == 6);
    Fix fix;
    fix.title = string_at(fix_json, "title");
    const json& edits = fix_json.at("edits");
    require(edits.is_array());
    for (const json& edit : edits) {
      require(edit.is_array() && edit.size() == 3 && edit.at(2).is_string());
      fix.edits.push_back({range_in(text, number_at(edit.at(0)), number_at(edit.at(1))), edit.at(2).get<std::string>()});
    }
    fix.applicability =
        static_cast<Applicability>(choice_at(fix_json.at("applicability"), static_cast<int>(Applicability::DisplayOnly)));
    std::string torch = string_at(fix_json, "requires_torch");
    if (!torch.empty()) {
      try {
        fix.compat.torch = TorchVersion::parse(torch);
      } catch (const std::invalid_argument&) {
        throw Rejected{};
      }
    }
    fix.policy = static_cast<FixPolicy>(choice_at(fix_json.at("policy"), static_cast<int>(FixPolicy::AdoptNew)));
    const json& imports = fix_json.at("imports");
    require(imports.is_array());
    for (const json& module : imports) {
      require(module.is_string());
      fix.imported_modules.push_back(module.get<std::string>());
    }
    diagnostic.fixes.push_back(std::move(fix));
  }
  return diagnostic;
}

// The first line of an entry: magic, format and the checksum of everything after the line.
std::string header(std::string_view payload) {
  return std::string(kMagic) + ' ' + std::to_string(kFormat) + ' ' + content_hash(payload) + '\n';
}

// Is `path` (after resolving the links of its longest existing prefix) inside `root`?
bool resolves_inside(const fs::path& path, const fs::path& root) {
  std::error_code error;
  fs::path existing = path;
  fs::path rest;
  while (!fs::exists(fs::symlink_status(existing, error)) && existing.has_relative_path()) {
    rest = existing.filename() / rest;
    existing = existing.parent_path();
  }
  fs::path resolved = fs::weakly_canonical(existing, error);
  if (error) return false;
  fs::path real_root = fs::weakly_canonical(root, error);
  if (error) return false;
  fs::path relative = (resolved / rest).lexically_normal().lexically_relative(real_root);
  return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// A directory created here is marked as a cache: for git (`*` ignores everything in it, as
// Ruff's cache does) and for backup tools (https://bford.info/cachedir/).
std::string mark_as_cache(const fs::path& directory) {
  std::ofstream ignore(directory / ".gitignore");
  ignore << "# Created by torchmigrate: this directory is a cache.\n*\n";
  std::ofstream tag(directory / "CACHEDIR.TAG");
  tag << "Signature: 8a477f597d28d172789f06886806bc55\n"
         "# This file is a cache directory tag created by torchmigrate.\n"
         "# For information about cache directory tags, see https://bford.info/cachedir/\n";
  return ignore && tag ? "" : "cannot write its .gitignore and CACHEDIR.TAG";
}

}  // namespace

ResultCache::ResultCache(fs::path directory, std::ostream* warnings)
    : directory_(std::move(directory)), warnings_(warnings), warned_(std::make_shared<std::atomic<bool>>(false)) {}

std::optional<ResultCache> ResultCache::open(const fs::path& directory, const std::optional<fs::path>& confine_to,
                                             std::string& problem, std::ostream* warnings) {
  std::error_code error;
  if (confine_to && !resolves_inside(directory, *confine_to)) {
    problem = "it is not inside " + confine_to->string() + " (after resolving symbolic links)";
    return std::nullopt;
  }
  fs::file_status status = fs::status(directory, error);
  if (!fs::exists(status)) {
    fs::create_directories(directory, error);
    if (error) {
      problem = "cannot create it: " + error.message();
      return std::nullopt;
    }
    problem = mark_as_cache(directory);
    if (!problem.empty()) return std::nullopt;
  } else if (!fs::is_directory(status)) {
    problem = "it is not a directory";
    return std::nullopt;
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    problem = "it is not writable";
    return std::nullopt;
  }
  return ResultCache(directory, warnings);
}

std::string ResultCache::key(std::string_view path, std::string_view text, const Settings& settings) {
  std::string material = std::string(kVersion) + '\0' + catalog_hash();
  material += '\0';
  material += portable_path(path, settings);
  material += '\0';
  material += settings_hash(settings, path);
  material += '\0';
  material += text;
  return content_hash(material);
}

fs::path ResultCache::entry(const std::string& key) const {
  return directory_ / key.substr(0, 2) / (key.substr(2) + ".json");
}

std::optional<std::vector<Diagnostic>> ResultCache::load(const std::string& key, std::string_view path,
                                                         const Settings& settings, std::string_view text) const {
  std::ifstream in(entry(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t newline = bytes.find('\n');
  if (newline == std::string::npos) return std::nullopt;
  std::string_view payload = std::string_view(bytes).substr(newline + 1);
  if (bytes.compare(0, newline + 1, header(payload)) != 0) return std::nullopt;
  try {
    json document = json::parse(payload);
    require(document.is_object() && document.size() == 6);
    require(document.at("format") == kFormat && string_at(document, "tool") == kVersion &&
            string_at(document, "catalog") == catalog_hash() && string_at(document, "settings") == settings_hash(settings, path) &&
            string_at(document, "key") == key);
    const json& items = document.at("diagnostics");
    require(items.is_array());
    std::vector<Diagnostic> diagnostics;
    for (const json& item : items) diagnostics.push_back(from_json(item, text));
    return diagnostics;
  } catch (const json::exception&) {
    return std::nullopt;
  } catch (const Rejected&) {
    return std::nullopt;
  }
}

void ResultCache::warn_once(const std::string& problem) const {
  if (warnings_ == nullptr || warned_->exchange(true)) return;
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  *warnings_ << "torchmigrate: warning: cannot write the cache in " << directory_.string() << ": " << problem
             << "; findings are not cached\n";
}

void ResultCache::store(const std::string& key, std::string_view path, const Settings& settings,
                        const std::vector<Diagnostic>& diagnostics) const {
  std::error_code error;
  fs::path target = entry(key);
  fs::create_directories(target.parent_path(), error);
  if (error) return warn_once(error.message());
  json document{{"format", kFormat},  {"tool", kVersion}, {"catalog", catalog_hash()},
                {"settings", settings_hash(settings, path)}, {"key", key},     {"diagnostics", json::array()}};
  for (const Diagnostic& diagnostic : diagnostics) document["diagnostics"].push_back(to_json(diagnostic));
  std::string payload = document.dump(-1, ' ', false, json::error_handler_t::replace);
  // Written beside the entry and renamed, so a reader never sees half an entry.
  fs::path temporary = target;
  temporary += ".tmp" + std::to_string(::getpid()) + "-" +
               std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << header(payload) << payload;
    if (!out) {
      fs::remove(temporary, error);
      return warn_once("cannot write " + temporary.string());
    }
  }
  fs::rename(temporary, target, error);
  if (error) {
    fs::remove(temporary, error);
    warn_once(error.message());
  }
}

std::optional<ResultCache> open_result_cache(const std::string& cli_directory, const ResolvedConfig& config,
                                             std::ostream& warnings) {
  fs::path directory;
  std::optional<fs::path> confine_to;
  const char* environment = std::getenv(kCacheDirEnvironment);
  if (!cli_directory.empty()) {
    directory = cli_directory;
  } else if (environment != nullptr && *environment != '\0') {
    directory = environment;
  } else if (config.cache_dir) {
    directory = *config.cache_dir;
    confine_to = config.cache_dir_root;
  } else {
    return std::nullopt;
  }
  std::string problem;
  std::optional<ResultCache> cache = ResultCache::open(directory, confine_to, problem, &warnings);
  if (!cache) {
    warnings << "torchmigrate: warning: not using the cache directory " << directory.string() << ": " << problem
             << "; findings are not cached\n";
  }
  return cache;
}

}  // namespace torchmigrate::engine
