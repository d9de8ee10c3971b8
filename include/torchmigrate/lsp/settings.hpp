// SPDX-License-Identifier: MIT
// What the server lints each file with: the settings resolver (one entry point, settings_for)
// and the file filter. Both ask the engine's Workspace, exactly as `check` does (configuration
// files, the file's project with its torch range and facts); the client's options play the
// part of command-line flags.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/lint/python_check.hpp"
#include "torchmigrate/engine/workspace/config.hpp"
#include "torchmigrate/engine/workspace/workspace.hpp"

namespace torchmigrate::lsp {

// Options a client passes as initializationOptions (or in workspace/didChangeConfiguration
// under "torchmigrate"); the same meaning as the CLI flags of the same names.
struct ClientOptions {
  std::vector<std::string> select, extend_select, ignore;
  std::optional<std::string> min_torch;
  std::optional<std::string> target_version;  // a catalog release or "latest"
  std::map<std::string, std::string> policy;  // code or "ALL" -> keep-old | adopt-new
  bool unsafe_fixes = false;
};

// Reads the options leniently: a wrongly typed or unknown entry is dropped and described in
// `errors` (shown to the user), the rest still applies.
ClientOptions parse_client_options(const nlohmann::json& options, std::vector<std::string>& errors);

// Files whose change can change the settings (re-read on workspace/didChangeWatchedFiles):
// configuration files, and the pins and build files a project's range and facts come from.
inline constexpr std::array<std::string_view, 3> kConfigFileNames = {"pyproject.toml", "torchmigrate.toml",
                                                                     ".torchmigrate.toml"};
bool is_config_file(const std::filesystem::path& path);

struct FileSettings {
  engine::Settings settings;
  std::shared_ptr<const engine::Linter> linter;  // keeps its workspace alive
};

class SettingsResolver {
 public:
  SettingsResolver(const engine::Catalog& catalog, const engine::CheckRegistry& registry);

  void set_roots(std::vector<std::filesystem::path> roots) { roots_ = std::move(roots); }
  // Replaces the client options; returns the problems found (empty when all applied).
  std::vector<std::string> set_options(const ClientOptions& options);
  // Settings for one file (a path, or empty for an unsaved buffer). Never throws: bad
  // settings fall back to the defaults and are reported through `take_errors`.
  std::shared_ptr<const FileSettings> settings_for(const std::filesystem::path& file);
  // Whether the CLI's file filter skips this file when checking the workspace root that holds it.
  [[nodiscard]] bool is_excluded(const std::filesystem::path& file);
  // Drops cached settings (a config file changed); bumps generation().
  void invalidate();
  [[nodiscard]] uint64_t generation() const { return generation_; }
  std::vector<std::string> take_errors() { return std::exchange(errors_, {}); }

 private:
  std::shared_ptr<const FileSettings> defaults();
  engine::Workspace& workspace();

 private:
  const engine::Catalog& catalog_;
  const engine::CheckRegistry& registry_;
  std::vector<std::filesystem::path> roots_;
  ClientOptions options_;
  std::shared_ptr<engine::Workspace> workspace_;  // recreated when options or files change
  std::map<const engine::Linter*, std::shared_ptr<const FileSettings>> cache_;
  std::shared_ptr<const FileSettings> defaults_;
  uint64_t generation_ = 1;
  std::vector<std::string> errors_;
};

}  // namespace torchmigrate::lsp
