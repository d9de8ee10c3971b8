// SPDX-License-Identifier: MIT
// Everything a run needs to know per file, shared by the CLI and the language server: which
// configuration applies, which linter checks it (selection, per-file ignores, torch range),
// and which files the walk skips (excludes, .gitignore).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "torchmigrate/engine/config.hpp"
#include "torchmigrate/engine/discovery.hpp"
#include "torchmigrate/engine/gitignore.hpp"
#include "torchmigrate/engine/linter.hpp"

namespace torchmigrate::engine {

// Settings that come from the run rather than from configuration files.
struct RunFacts {
  std::optional<TorchVersion> detected_min_torch;  // from the project's pins, when not configured
  ProjectFacts project_facts;
  std::string compile_database_dir;
};

class Workspace {
 public:
  Workspace(const Catalog& catalog, const CheckRegistry& registry, CliOverrides overrides,
            std::optional<std::filesystem::path> explicit_config, bool isolated);

  void set_run_facts(RunFacts facts);
  // Throws ConfigError for a bad configuration file.
  const ResolvedConfig& config_for(const std::filesystem::path& path);
  // The linter for one file: its configuration plus its per-file ignores. Thread-safe.
  const Linter& linter_for(const std::filesystem::path& path);
  // The walk's filter: configured excludes, .gitignore (unless disabled), configured extensions.
  DiscoveryFilter filter(bool force_exclude);
  [[nodiscard]] const Catalog& catalog() const { return catalog_; }

 private:
  const Catalog& catalog_;
  const CheckRegistry& registry_;
  ConfigResolver resolver_;
  RunFacts facts_;
  std::recursive_mutex mutex_;
  GitIgnore gitignore_;
  std::map<std::string, std::unique_ptr<Linter>> linters_;  // by config path + ignored codes
};

}  // namespace torchmigrate::engine
