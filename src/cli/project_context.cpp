// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/project_context.hpp"

#include <map>
#include <set>
#include <system_error>

#include "torchmigrate/engine/catalog/rule_lifecycle.hpp"
#include "torchmigrate/engine/run/baseline.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

namespace torchmigrate::cli {
namespace fs = std::filesystem;

namespace {

// A directory as the user would type it from here: relative when below the working directory.
std::string shown(const fs::path& path) {
  std::error_code error;
  fs::path cwd = fs::weakly_canonical(fs::current_path(error), error);
  fs::path relative = path.lexically_relative(cwd);
  if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  return path.generic_string();
}

std::string yes_no(bool value) { return value ? "yes" : "no"; }

std::string join(const std::vector<std::string>& items, std::string_view empty) {
  if (items.empty()) return std::string(empty);
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// Every file the project's range was read from, as the user would type it; for an inherited
// range, the enclosing project's files too.
std::string pin_files_of(const engine::TorchRange& range) {
  auto listed = [](const std::vector<fs::path>& files) {
    std::vector<std::string> shown_files;
    for (const fs::path& file : files) shown_files.push_back(shown(file));
    return join(shown_files, "none");
  };
  std::string text = listed(range.files);
  if (range.inherited_from.empty()) return text;
  return text + "; inherited from " + shown(range.inherited_from) + ": " + listed(range.inherited_files);
}

std::string configuration_of(const engine::ResolvedConfig& config) {
  if (!config.source) return "none";
  std::string text = shown(*config.source);
  for (const fs::path& base : config.bases) text += " (extends " + shown(base) + ")";
  return text;
}

}  // namespace

std::map<fs::path, engine::FileContext> projects_of_run(engine::Workspace& workspace,
                                                       const std::vector<engine::DiscoveredFile>& files,
                                                       const std::vector<std::string>& paths) {
  std::map<fs::path, engine::FileContext> by_root;
  const engine::Project* last = nullptr;  // files come by directory: most share the one before
  for (const engine::DiscoveredFile& file : files) {
    engine::FileContext context = workspace.context_for(file.path, file.plain);
    if (context.project.get() == last) continue;
    last = context.project.get();
    by_root.try_emplace(context.project->root(), context);
  }
  if (by_root.empty() && !paths.empty()) {
    engine::FileContext context = workspace.context_for(paths.front());
    by_root.try_emplace(context.project->root(), context);
  }
  return by_root;
}

namespace {

// A path the report prints, relative to its root as the CI formats print paths: the same report
// from any directory.
std::string report_relative(const fs::path& path, const output::Report& report) {
  if (path.lexically_normal() == fs::path(report.root).lexically_normal()) return ".";
  return engine::root_relative(path.string(), {report.base, report.root});
}

// "pkg/requirements.txt:3" or "pkg/torchmigrate.toml (min-torch)" with the file's path made
// report-relative; "--min-torch" and "default" as they are.
std::string report_relative_source(const std::string& source, const output::Report& report) {
  if (source.empty() || source.starts_with("-") || source == "default") return source;
  size_t end = source.find(" (");
  if (end == std::string::npos) {
    size_t colon = source.rfind(':');
    bool line = colon != std::string::npos && colon + 1 < source.size() &&
                source.find_first_not_of("0123456789", colon + 1) == std::string::npos;
    end = line ? colon : source.size();
  }
  return report_relative(source.substr(0, end), report) + source.substr(end);
}

}  // namespace

void describe_projects(engine::Workspace& workspace, const std::vector<engine::DiscoveredFile>& files,
                       const std::vector<std::string>& paths, output::Report& report) {
  std::map<fs::path, size_t> index;
  for (const auto& [root, context] : projects_of_run(workspace, files, paths)) {
    index.emplace(root, report.projects.size());
    report.projects.push_back({report_relative(root, report), context.range->span(),
                               report_relative_source(context.range->source, report), 0});
  }
  for (const engine::DiscoveredFile& file : files)
    ++report.projects[index.at(workspace.project_of(file)->root())].files;
  for (output::FileFindings& findings : report.files) {
    auto it = index.find(workspace.project_of(findings.file->path())->root());
    if (it != index.end()) findings.project = it->second;
  }
}

namespace {

// A source as the user would type it: "pkg/torchmigrate.toml (min-torch)", "--min-torch".
std::string shown_source(const std::string& source) {
  if (source.empty() || !fs::path(source).is_absolute()) return source;
  size_t end = source.find(" (");
  return shown(source.substr(0, end)) + (end == std::string::npos ? "" : source.substr(end));
}

// "supported torch 2.7-2.9 (from requirements.txt:1); target torch 2.8"
std::string range_line(const engine::FileContext& context) {
  engine::TorchRange range = *context.range;
  range.source = shown_source(range.source);
  std::string line = range.describe();
  line += "; target torch " + context.linter->settings().target.str();
  if (!context.target_source.empty()) line += " (from " + shown_source(context.target_source) + ")";
  return line;
}

// One line for a run over several projects: how many, and their distinct ranges and targets.
std::string summary_line(const std::map<fs::path, engine::FileContext>& by_root) {
  std::map<std::string, size_t> ranges;  // span -> projects
  std::set<std::string> targets;
  for (const auto& [root, context] : by_root) {
    ++ranges[context.range->span()];
    targets.insert(context.linter->settings().target.str());
  }
  std::string line = std::to_string(by_root.size()) + " projects, supported torch ";
  size_t shown = 0;
  for (const auto& [span, projects] : ranges) {
    line += (shown++ == 0 ? "" : ", ") + span + " (" + std::to_string(projects) + ")";
  }
  line += "; target torch ";
  shown = 0;
  for (const std::string& target : targets) line += (shown++ == 0 ? "" : ", ") + target;
  return line + " (-v names each project)";
}

}  // namespace

void print_torch_ranges(engine::Workspace& workspace, const std::vector<engine::DiscoveredFile>& files,
                        const std::vector<std::string>& paths, ContextLines lines, std::ostream& err) {
  // Each project once, ordered by root; a run of no files still names the project of its first path.
  std::map<fs::path, engine::FileContext> by_root = projects_of_run(workspace, files, paths);
  std::set<std::string> notes, warnings;
  for (const auto& [root, context] : by_root) {
    for (const std::string& note : context.range->notes) notes.insert(note);
    for (const std::string& warning : context.range->warnings) warnings.insert(warning);
  }
  for (const std::string& warning : warnings) err << "torchmigrate: warning: " << warning << '\n';
  // The notes say which pins were ignored: a tree of many projects has dozens, so a default run
  // counts them on its one context line and -v lists them.
  if (lines == ContextLines::Verbose || lines == ContextLines::WarningsAndNotes) {
    for (const std::string& note : notes) err << "torchmigrate: note: " << note << '\n';
  }
  if (lines == ContextLines::Warnings || lines == ContextLines::WarningsAndNotes) return;
  std::string ignored_pins;
  if (lines == ContextLines::Normal && !notes.empty()) {
    ignored_pins = "; " + std::to_string(notes.size()) + (notes.size() == 1 ? " torch pin" : " torch pins") +
                   " could not be read (-v lists them)";
  }
  // A default run says one line however many projects it spans; -v one per project.
  if (lines == ContextLines::Normal && by_root.size() > 1) {
    err << "torchmigrate: " << summary_line(by_root) << ignored_pins << '\n';
    return;
  }
  for (const auto& [root, context] : by_root) {
    err << "torchmigrate: ";
    if (by_root.size() > 1 || lines == ContextLines::Verbose) err << shown(root) << ": ";
    err << range_line(context) << ignored_pins;
    if (lines == ContextLines::Verbose) err << "; configuration: " << configuration_of(*context.config);
    err << '\n';
  }
}

void print_settings(engine::Workspace& workspace, const std::vector<std::string>& paths, std::ostream& out) {
  for (const std::string& path : paths) {
    engine::FileContext context = workspace.context_for(path);
    const engine::Settings& settings = context.linter->settings();
    std::vector<std::string> enabled, outside, policies;
    for (const engine::RuleSpec& rule : workspace.catalog().rules()) {
      if (!settings.selection.enabled(rule)) continue;
      bool applies = engine::standing_of(rule, settings.min_torch, settings.target).reported;
      (applies ? enabled : outside).push_back(rule.code);
    }
    for (const auto& [code, policy] : settings.policies) policies.push_back(code + "=" + std::string(to_string(policy)));
    const engine::ProjectFacts& facts = settings.project_facts();
    out << "Settings for " << path << '\n'
        << "  project root: " << shown(context.project->root()) << '\n'
        << "  configuration: " << configuration_of(*context.config) << '\n'
        << "  supported torch: " << context.range->span() << " (from " << shown_source(context.range->source)
        << (context.range->inherited_from.empty() ? "" : ", inherited from " + shown(context.range->inherited_from))
        << ")\n"
        << "  torch pins read: " << pin_files_of(*context.range) << '\n'
        << "  target torch: " << settings.target.str() << " ("
        << (context.target_source.empty() ? "default" : "from " + shown_source(context.target_source)) << ")\n"
        << "  policy: " << join(policies, "keep-old (default)") << '\n'
        << "  unsafe fixes: " << (settings.unsafe_fixes ? "on" : "off") << '\n'
        << "  fixable: " << join(settings.fixable, "all") << "; unfixable: " << join(settings.unfixable, "none") << '\n'
        << "  enabled rules: " << join(enabled, "none") << '\n'
        << "  enabled, but not for this range and target: " << join(outside, "none") << '\n'
        << "  per-file ignores: " << join(settings.selection.file_ignore, "none") << '\n'
        << "  compile database: "
        << (settings.compile_database_dir.empty() ? "searched upwards from each file" : settings.compile_database_dir)
        << '\n'
        << "  project facts: calls torch.onnx.export(dynamo=True): "
        << yes_no(facts.get(engine::facts::onnx_dynamo_export))
        << "; CMake finds Torch: " << yes_no(facts.get(engine::facts::cmake_finds_torch)) << '\n';
  }
}

}  // namespace torchmigrate::cli
