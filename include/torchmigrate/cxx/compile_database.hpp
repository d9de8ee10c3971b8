// SPDX-License-Identifier: MIT
// Finding a project's compile_commands.json and turning its entry for a file into libclang
// arguments that keep what affects name lookup (includes, macros, language standard).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace torchmigrate::cxx {

// The directory holding compile_commands.json: `explicit_dir` when given (nullopt if it has
// none), else the nearest of the file's directory and its ancestors, each also tried with a
// `build/` subdirectory, as clangd does.
std::optional<std::filesystem::path> find_compile_database(const std::filesystem::path& file,
                                                           const std::filesystem::path& explicit_dir = {});

struct CompileCommand {
  std::filesystem::path directory;  // the compiler's working directory
  std::filesystem::path file;       // absolute path of the source
  std::vector<std::string> arguments;  // libclang arguments: no compiler, source, -c or -o
};

// The database's command for `file` (libclang infers one for a file without an entry, e.g. a
// header, from a similar entry); nullopt when the database cannot be loaded or is empty.
// Databases are loaded once per directory and shared between threads.
std::optional<CompileCommand> compile_command_for(const std::filesystem::path& database_dir,
                                                  const std::filesystem::path& file);

// Keeps the flags of a full compiler command line that matter for parsing (-I, -isystem,
// -iquote, -idirafter, -include, -D, -U, -std, --sysroot, -isysroot, -stdlib, --target),
// with relative paths made absolute against `directory`.
std::vector<std::string> parsing_arguments(const std::vector<std::string>& command_line,
                                           const std::filesystem::path& directory);

}  // namespace torchmigrate::cxx
