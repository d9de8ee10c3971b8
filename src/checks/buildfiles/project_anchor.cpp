// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/project_anchor.hpp"

#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

namespace torchmigrate::checks {

bool holds_line(const engine::FileCheckContext& context, const engine::ProjectLine& line) {
  const std::shared_ptr<const engine::Project>& project = context.settings().project;
  if (!project || !line.found()) return false;
  return engine::project_relative(project->root(), context.file().path()) == line.file;
}

std::optional<TextRange> trimmed_line(const SourceFile& file, uint32_t line) {
  if (line == 0 || line > file.lines().line_count()) return std::nullopt;
  TextRange range = file.lines().line_range(line - 1, file.text());
  std::string_view text = file.slice(range);
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return range;
  size_t last = text.find_last_not_of(" \t");
  return TextRange{static_cast<uint32_t>(range.start + first), static_cast<uint32_t>(range.start + last + 1)};
}

std::optional<TextRange> requirement_or_line(engine::FileCheckContext& context, std::string_view package,
                                             uint32_t line) {
  for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(context.build_file(), package)) {
    if (context.file().location(requirement.range.start).line == line) return requirement.range;
  }
  return trimmed_line(context.file(), line);
}

bool admits_release(std::string_view specifier, std::string_view release) {
  std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(specifier);
  if (!specifiers) return true;  // unreadable: assume it does
  specifiers->push_back({">=", std::string(release)});
  // With a lower bound added, "no lowest version" means "no version at all".
  return buildfiles::lowest_admitted(*specifiers).has_value();
}

}  // namespace torchmigrate::checks
