// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/shard_result.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <system_error>

#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::cli {
namespace {

using nlohmann::json;

json fix_record(const Fix& fix) {
  json edits = json::array();
  for (const Edit& edit : fix.edits) edits.push_back({edit.range.start, edit.range.end, edit.replacement});
  return {{"title", fix.title},
          {"applicability", static_cast<int>(fix.applicability)},
          {"requires_torch", fix.requirements.torch ? fix.requirements.torch->str() : ""},
          {"requires_torch_below", fix.requirements.below ? fix.requirements.below->str() : ""},
          {"policy", static_cast<int>(fix.policy)},
          {"edits", edits}};
}

json diagnostic_record(const Diagnostic& diagnostic) {
  json fixes = json::array();
  for (const Fix& fix : diagnostic.fixes) fixes.push_back(fix_record(fix));
  return {{"code", diagnostic.code},
          {"message", diagnostic.message},
          {"severity", static_cast<int>(diagnostic.severity)},
          {"range", {diagnostic.range.start, diagnostic.range.end}},
          {"fixes", fixes}};
}

// What the formats read of a file's settings: its torch range, policies and --unsafe-fixes.
json settings_record(const engine::Settings& settings) {
  json policies = json::object();
  for (const auto& [code, policy] : settings.policies) policies[code] = static_cast<int>(policy);
  return {{"min_torch", settings.min_torch.str()}, {"max_torch", settings.max_torch ? settings.max_torch->str() : ""},
          {"target", settings.target.str()},       {"range_known", settings.torch_range_known},
          {"unsafe_fixes", settings.unsafe_fixes}, {"policies", policies}};
}

template <typename Enum>
Enum enum_at(const json& value, Enum last) {
  int number = value.get<int>();
  if (number < 0 || number > static_cast<int>(last)) throw std::invalid_argument("an unknown enumeration value");
  return static_cast<Enum>(number);
}

TextRange range_at(const json& value, size_t text_size) {
  auto start = value.at(0).get<uint32_t>(), end = value.at(1).get<uint32_t>();
  if (start > end || end > text_size) throw std::invalid_argument("a range outside its file");
  return {start, end};
}

Diagnostic read_diagnostic(const json& record, size_t text_size) {
  Diagnostic diagnostic;
  diagnostic.code = record.at("code").get<std::string>();
  diagnostic.message = record.at("message").get<std::string>();
  diagnostic.severity = enum_at(record.at("severity"), Severity::Info);
  diagnostic.range = range_at(record.at("range"), text_size);
  for (const json& fix_json : record.at("fixes")) {
    Fix fix;
    fix.title = fix_json.at("title").get<std::string>();
    fix.applicability = enum_at(fix_json.at("applicability"), Applicability::DisplayOnly);
    std::string torch = fix_json.at("requires_torch").get<std::string>();
    if (!torch.empty()) fix.requirements.torch = TorchVersion::parse(torch);
    std::string below = fix_json.value("requires_torch_below", "");
    if (!below.empty()) fix.requirements.below = TorchVersion::parse(below);
    fix.policy = enum_at(fix_json.at("policy"), FixPolicy::AdoptNew);
    for (const json& edit : fix_json.at("edits")) {
      fix.edits.push_back({range_at(edit, text_size), edit.at(2).get<std::string>()});
    }
    diagnostic.fixes.push_back(std::move(fix));
  }
  return diagnostic;
}

std::shared_ptr<const engine::Settings> read_settings(const json& record) {
  auto settings = std::make_shared<engine::Settings>();
  settings->min_torch = TorchVersion::parse(record.at("min_torch").get<std::string>());
  settings->max_torch.reset();
  if (std::string max = record.value("max_torch", ""); !max.empty()) settings->max_torch = TorchVersion::parse(max);
  if (std::string target = record.value("target", ""); !target.empty()) settings->target = TorchVersion::parse(target);
  settings->torch_range_known = record.value("range_known", true);
  settings->unsafe_fixes = record.at("unsafe_fixes").get<bool>();
  for (const auto& [code, policy] : record.at("policies").items()) {
    settings->policies[code] = enum_at(policy, FixPolicy::AdoptNew);
  }
  return settings;
}

}  // namespace

ShardRun start_shard_run(const CheckOptions& options, Shard shard, const std::vector<engine::DiscoveredFile>& files) {
  ShardRun run;
  run.shard = shard;
  run.files_total = files.size();
  // Every option that changes which files are checked or what is found in them; the output
  // options and --shard itself may differ between shards.
  json material{kVersion,
                kRevision,
                options.paths,
                options.select,
                options.extend_select,
                options.ignore,
                options.policies,
                options.min_torch,
                options.target_version,
                options.compile_database_dir,
                options.config_path,
                options.isolated,
                options.force_exclude,
                options.respect_gitignore,
                options.no_respect_gitignore,
                options.exclude,
                options.extend_exclude,
                options.per_file_ignores,
                options.fixable,
                options.unfixable,
                options.project_root,
                options.baseline,
                options.unsafe_fixes,
                options.fix,
                options.fix_only};
  std::string list = material.dump(-1, ' ', false, json::error_handler_t::replace);
  for (size_t i = 0; i < files.size(); ++i) {
    std::error_code error;
    uintmax_t size = std::filesystem::file_size(files[i].path, error);
    list += '\n' + files[i].path + '\0' + std::to_string(error ? 0 : size);
    run.position.emplace(files[i].path, i);
  }
  run.fingerprint = engine::content_hash(list);
  return run;
}

void write_shard_json(const output::Report& report, const ShardRun& run, std::ostream& out) {
  json findings = json::array();
  json files = json::array();
  json settings_table = json::array();
  std::map<std::string, size_t> settings_index;
  auto settings_of = [&](const engine::Settings& settings) {
    json record = settings_record(settings);
    auto [it, added] = settings_index.try_emplace(record.dump(), settings_table.size());
    if (added) settings_table.push_back(record);
    return it->second;
  };
  size_t report_settings = settings_of(*report.settings);
  for (const output::FileFindings& file : report.files) {
    if (file.file->is_excerpt()) throw std::logic_error("a shard needs the whole text of " + file.file->path());
    for (const Diagnostic& diagnostic : file.diagnostics) findings.push_back(output::finding_json(report, file, diagnostic));
    json diagnostics = json::array();
    for (const Diagnostic& diagnostic : file.diagnostics) diagnostics.push_back(diagnostic_record(diagnostic));
    files.push_back({{"path", file.file->path()},
                     {"position", run.position.at(file.file->path())},
                     {"language", static_cast<int>(file.file->language())},
                     {"text", file.file->text()},
                     {"settings", settings_of(report.settings_for(file))},
                     {"project", file.project},
                     {"diagnostics", diagnostics}});
  }
  json projects = json::array();
  for (const output::ProjectSummary& project : report.projects) {
    projects.push_back({{"root", project.root},
                        {"torch_range", project.torch_range},
                        {"source", project.source},
                        {"files", project.files}});
  }
  json shard{{"version", kVersion},
             {"index", run.shard.index},
             {"total", run.shard.total},
             {"fingerprint", run.fingerprint},
             {"files_total", run.files_total},
             {"files_checked", report.files_checked},
             {"root", report.root},
             {"base", report.base},
             {"fix_mode", report.fix_mode},
             {"fixed", report.fixed},
             {"projects", projects},
             {"settings", settings_table},
             {"report_settings", report_settings},
             {"files", files}};
  json document{{"findings", findings}, {"shard", shard}};
  out << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

ShardResult read_shard_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read `" + path + "`");
  json document = json::parse(in, nullptr, false);
  if (document.is_discarded()) throw std::runtime_error("`" + path + "` is not JSON");
  if (!document.is_object() || !document.contains("shard")) {
    throw std::runtime_error("`" + path + "` is not a shard's result; write one with `check --shard K/N "
                             "--output-format json -o FILE` (without --statistics)");
  }
  ShardResult result;
  try {
    const json& shard = document.at("shard");
    result.version = shard.at("version").get<std::string>();
    result.shard.index = shard.at("index").get<unsigned>();
    result.shard.total = shard.at("total").get<unsigned>();
    if (result.shard.index == 0 || result.shard.index > result.shard.total) throw std::invalid_argument("a bad shard");
    result.fingerprint = shard.at("fingerprint").get<std::string>();
    result.files_total = shard.at("files_total").get<size_t>();
    result.files_checked = shard.at("files_checked").get<size_t>();
    result.root = shard.at("root").get<std::string>();
    result.base = shard.at("base").get<std::string>();
    result.fix_mode = shard.at("fix_mode").get<bool>();
    result.fixed = shard.at("fixed").get<int>();
    for (const json& project : shard.at("projects")) {
      result.projects.push_back({project.at("root").get<std::string>(), project.at("torch_range").get<std::string>(),
                                 project.at("source").get<std::string>(), project.at("files").get<size_t>()});
    }
    for (const json& settings : shard.at("settings")) result.settings.push_back(read_settings(settings));
    result.report_settings = result.settings.at(shard.at("report_settings").get<size_t>()).get();
    for (const json& file : shard.at("files")) {
      auto source = std::make_shared<SourceFile>(file.at("path").get<std::string>(), file.at("text").get<std::string>(),
                                                 enum_at(file.at("language"), Language::Unknown));
      ShardResult::File entry;
      entry.position = file.at("position").get<size_t>();
      entry.findings.file = source;
      entry.findings.settings = result.settings.at(file.at("settings").get<size_t>()).get();
      entry.findings.project = file.at("project").get<size_t>();
      if (!result.projects.empty() && entry.findings.project >= result.projects.size()) {
        throw std::invalid_argument("a file of an unknown project");
      }
      for (const json& record : file.at("diagnostics")) {
        entry.findings.diagnostics.push_back(read_diagnostic(record, source->text().size()));
      }
      result.files.push_back(std::move(entry));
    }
  } catch (const std::exception& error) {
    throw std::runtime_error("`" + path + "` is not a valid shard result (" + error.what() + ")");
  }
  return result;
}

}  // namespace torchmigrate::cli
