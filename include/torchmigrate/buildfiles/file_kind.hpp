// SPDX-License-Identifier: MIT
// Which build, packaging or environment format a file is, decided by its name, so each front
// knows its comment and continuation syntax.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace torchmigrate::buildfiles {

enum class FileKind {
  Dockerfile,        // Dockerfile*, *.dockerfile
  Shell,             // *.sh, *.bash
  Yaml,              // *.yml, *.yaml (CI)
  CondaEnvironment,  // environment*.yml / environment*.yaml
  CMake,             // CMakeLists.txt, *.cmake
  Makefile,          // Makefile, GNUmakefile, *.mk
  Toml,              // *.toml (pyproject.toml's dependencies are read as requirements)
  Ini,               // *.cfg, *.ini (setup.cfg's install_requires are read as requirements)
  Requirements,      // requirements*.txt, constraints*.txt
  SetupPy,           // setup.py: a Python file, also scanned for requirement strings
  DotEnv,            // .env, *.env
  Batch,             // *.bat, *.cmd (Windows cmd.exe: `set`, `setx`, REM comments)
  Singularity,       // Singularity, Singularity.*, Apptainer, Apptainer.*, *.def (shell sections)
  Unknown,
};

// Extra file-name endings (".containerfile") read as a given kind; filled from configuration.
using ExtraExtensions = std::map<std::string, FileKind, std::less<>>;

FileKind kind_for(const std::filesystem::path& path);
FileKind kind_for(const std::filesystem::path& path, const ExtraExtensions& extra);
std::string_view to_string(FileKind kind);
// Parses the names to_string gives ("dockerfile", "shell", ...), for configuration files.
std::optional<FileKind> parse_kind(std::string_view name);

}  // namespace torchmigrate::buildfiles
