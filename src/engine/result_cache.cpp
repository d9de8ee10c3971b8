// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/result_cache.hpp"

#include "torchmigrate/engine/content_hash.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "embedded_rules.hpp"
#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/project.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::engine {
namespace {

using nlohmann::json;

// The build's identity: version plus the embedded catalog, so a rule change invalidates entries.
const std::string& build_identity() {
  static const std::string identity = [] {
    std::string all = kVersion;
    for (const EmbeddedRule& rule : embedded_rules()) all.append(rule.json);
    return content_hash(all);
  }();
  return identity;
}

// `path` decides whether the project's facts matter: only build and C/C++ rules read them, and
// asking for them gathers them from the project's tree.
std::string settings_identity(const Settings& settings, std::string_view path) {
  json out{{"select", settings.selection.select},
           {"extend_select", settings.selection.extend_select},
           {"ignore", settings.selection.ignore},
           {"file_ignore", settings.selection.file_ignore},
           {"min_torch", settings.min_torch.str()},
           {"unsafe", settings.unsafe_fixes},
           {"compile_db", settings.compile_database_dir}};
  if (settings.project) out["project"] = settings.project->root().generic_string();
  std::filesystem::path file(path);
  // setup.py is Python that the build rules read too.
  if (language_for(file, settings.build_extensions) != Language::Python || file.filename() == "setup.py") {
    const ProjectFacts& facts = settings.project_facts();
    out["dynamo_export"] = facts.calls_onnx_dynamo_export;
    out["find_torch"] = facts.cmake_finds_torch;
  }
  for (const auto& [code, policy] : settings.policies) out["policies"][code] = std::string(to_string(policy));
  for (const auto& [ending, kind] : settings.build_extensions) out["build"][ending] = static_cast<int>(kind);
  return out.dump();
}

json to_json(const Diagnostic& diagnostic) {
  json fixes = json::array();
  for (const Fix& fix : diagnostic.fixes) {
    json edits = json::array();
    for (const Edit& edit : fix.edits) edits.push_back({edit.range.start, edit.range.end, edit.replacement});
    fixes.push_back({{"title", fix.title},
                     {"edits", edits},
                     {"applicability", static_cast<int>(fix.applicability)},
                     {"compat", static_cast<int>(fix.compat)},
                     {"policy", static_cast<int>(fix.policy)}});
  }
  return {{"code", diagnostic.code},       {"message", diagnostic.message}, {"start", diagnostic.range.start},
          {"end", diagnostic.range.end}, {"severity", static_cast<int>(diagnostic.severity)}, {"fixes", fixes}};
}

Diagnostic from_json(const json& entry) {
  Diagnostic diagnostic;
  diagnostic.code = entry.at("code").get<std::string>();
  diagnostic.message = entry.at("message").get<std::string>();
  diagnostic.range = {entry.at("start").get<uint32_t>(), entry.at("end").get<uint32_t>()};
  diagnostic.severity = static_cast<Severity>(entry.at("severity").get<int>());
  for (const json& fix_json : entry.at("fixes")) {
    Fix fix;
    fix.title = fix_json.at("title").get<std::string>();
    for (const json& edit : fix_json.at("edits")) {
      fix.edits.push_back({{edit.at(0).get<uint32_t>(), edit.at(1).get<uint32_t>()}, edit.at(2).get<std::string>()});
    }
    fix.applicability = static_cast<Applicability>(fix_json.at("applicability").get<int>());
    fix.compat = static_cast<Compat>(fix_json.at("compat").get<int>());
    fix.policy = static_cast<FixPolicy>(fix_json.at("policy").get<int>());
    diagnostic.fixes.push_back(std::move(fix));
  }
  return diagnostic;
}

}  // namespace

ResultCache::ResultCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::string ResultCache::key(std::string_view path, std::string_view text, const Settings& settings) {
  std::string material = build_identity();
  material += '\0';
  material += path;
  material += '\0';
  material += settings_identity(settings, path);
  material += '\0';
  material += text;
  return content_hash(material);
}

std::filesystem::path ResultCache::entry(const std::string& key) const {
  return directory_ / key.substr(0, 2) / (key.substr(2) + ".json");
}

std::optional<std::vector<Diagnostic>> ResultCache::load(const std::string& key) const {
  std::ifstream in(entry(key));
  if (!in) return std::nullopt;
  try {
    json document = json::parse(in);
    std::vector<Diagnostic> diagnostics;
    for (const json& item : document.at("diagnostics")) diagnostics.push_back(from_json(item));
    return diagnostics;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

void ResultCache::store(const std::string& key, const std::vector<Diagnostic>& diagnostics) const {
  std::error_code error;
  std::filesystem::path target = entry(key);
  std::filesystem::create_directories(target.parent_path(), error);
  if (error) return;
  if (!std::filesystem::exists(directory_ / "CACHEDIR.TAG", error)) {
    // Marks the folder as a cache for backup tools (https://bford.info/cachedir/).
    std::ofstream(directory_ / "CACHEDIR.TAG") << "Signature: 8a477f597d28d172789f06886806bc55\n"
                                                  "# This file marks a torchmigrate cache directory.\n";
  }
  json document{{"diagnostics", json::array()}};
  for (const Diagnostic& diagnostic : diagnostics) document["diagnostics"].push_back(to_json(diagnostic));
  // Written beside the entry and renamed, so a reader never sees half an entry.
  std::filesystem::path temporary = target;
  temporary += ".tmp" + std::to_string(::getpid()) + "-" +
               std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(temporary);
    if (!out) return;
    out << document.dump();
    if (!out) return;
  }
  std::filesystem::rename(temporary, target, error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace torchmigrate::engine
