// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/stdin_input.hpp"

#include <algorithm>

namespace torchmigrate::cli {

// As in Ruff, --stdin-filename always means standard input; paths beside it are ignored with a warning.
bool reads_stdin(const CheckOptions& options) {
  if (!options.stdin_filename.empty()) return true;
  return std::find(options.paths.begin(), options.paths.end(), "-") != options.paths.end();
}

std::string stdin_usage_error(const CheckOptions& options) {
  if (!reads_stdin(options)) return "";
  bool dash = std::find(options.paths.begin(), options.paths.end(), "-") != options.paths.end();
  if (dash && options.paths.size() > 1) return "`-` (standard input) cannot be combined with other paths";
  if (options.add_noqa) return "--add-noqa writes files; it cannot read standard input";
  if (options.show_files) return "--show-files lists files on disk; it cannot read standard input";
  // A shard might not own the one file, which would then go unchecked without a word.
  if (!options.shard.empty()) return "--shard splits files on disk; drop it (or TORCHMIGRATE_SHARD) to check standard input";
  return "";
}

std::vector<std::string> ignored_for_stdin(const CheckOptions& options) {
  std::vector<std::string> ignored;
  if (options.stdin_filename.empty()) return ignored;
  for (const std::string& path : options.paths) {
    if (path != "-") ignored.push_back(path);
  }
  return ignored;
}

std::string stdin_display_path(const CheckOptions& options) {
  return options.stdin_filename.empty() ? std::string("-") : options.stdin_filename;
}

std::optional<engine::DiscoveredFile> stdin_file(const CheckOptions& options, engine::Workspace& workspace,
                                                 std::string bytes) {
  std::filesystem::path path = stdin_display_path(options);
  if (options.force_exclude && path != "-") {
    engine::DiscoveryFilter filter = workspace.filter(true);
    if (filter.excluded(path, false)) return std::nullopt;
  }
  // Unnamed or of no known kind, the input is Python, the language nearly all of it is.
  Language language = workspace.config_for(path).language_for(path);
  if (language == Language::Unknown) language = Language::Python;
  return engine::DiscoveredFile{path, language, std::make_shared<const std::string>(std::move(bytes))};
}

}  // namespace torchmigrate::cli
