// SPDX-License-Identifier: MIT
// Whether the project's pytest configuration turns torch's DeprecationWarnings into test
// failures (project_facts.hpp: facts::pytest_warnings_as_errors). pytest reads one
// configuration file per directory, the first of pytest.ini, .pytest.ini, pyproject.toml
// ([tool.pytest.ini_options] or [tool.pytest]), tox.ini ([pytest]) and setup.cfg
// ([tool:pytest]) that has a pytest section; its `filterwarnings` entries apply in order, then
// the `-W` options of its `addopts`, and a later entry wins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

// One warnings filter (`action:message:category:module:lineno`) and the line that sets it.
struct PytestFilter {
  std::string text;
  uint32_t line = 0;  // 1-based
};

// What a pytest configuration file sets.
struct PytestConfig {
  std::vector<PytestFilter> filters;  // `filterwarnings`, then `-W` options of `addopts`
  bool warnings_plugin_off = false;   // `addopts = -p no:warnings`: filters do nothing
};

// The pytest configuration in a file named `name` (pytest.ini, pyproject.toml, ...); nullopt
// when the file is none (no pytest section, another name, TOML that does not parse). A
// pytest.ini is one even when empty, as pytest takes it so.
std::optional<PytestConfig> read_pytest_config(std::string_view name, std::string_view text);

// The filter that makes torch.jit's DeprecationWarnings errors, unless a later filter ignores
// (or merely shows) them again; nullptr when none does.
const PytestFilter* warnings_as_errors_filter(const PytestConfig& config);

// The first configuration file of the project, in path order, whose filters make torch.jit's
// DeprecationWarnings errors: the file, the line and the filter as written.
ProjectLine pytest_warnings_as_errors_of(const ProjectTree& tree);

}  // namespace torchmigrate::engine
