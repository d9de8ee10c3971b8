// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/compile_database.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

#include "torchmigrate/cxx/libclang.hpp"

namespace torchmigrate::cxx {
namespace {

namespace fs = std::filesystem;

bool has_database(const fs::path& directory) {
  std::error_code error;
  return fs::is_regular_file(directory / "compile_commands.json", error);
}

// Loaded databases by directory; nullptr remembers a directory that failed to load.
std::shared_ptr<CompilationDatabase> load(const fs::path& directory) {
  static std::mutex mutex;
  static std::map<fs::path, std::shared_ptr<CompilationDatabase>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(directory);
  if (it != cache.end()) return it->second;
  CXCompilationDatabase_Error error = CXCompilationDatabase_NoError;
  const LibclangApi& api = libclang();
  CXCompilationDatabase raw = api.clang_CompilationDatabase_fromDirectory(directory.string().c_str(), &error);
  std::shared_ptr<CompilationDatabase> database;
  if (error == CXCompilationDatabase_NoError && raw != nullptr) {
    database = std::make_shared<CompilationDatabase>(raw);
  } else if (raw != nullptr) {
    api.clang_CompilationDatabase_dispose(raw);
  }
  cache.emplace(directory, database);
  return database;
}

// Flags followed by a value, either joined ("-Ifoo") or as the next argument ("-I foo").
struct KeptFlag {
  std::string_view name;
  bool path;  // the value is a path, made absolute
};
// `-x` is not kept: the extension decides (nvcc's `-x cu` would make clang give up).
constexpr std::array<KeptFlag, 8> kValueFlags = {{{"-I", true},
                                                  {"-isystem", true},
                                                  {"-iquote", true},
                                                  {"-idirafter", true},
                                                  {"-include", true},
                                                  {"-D", false},
                                                  {"-U", false},
                                                  {"-isysroot", true}}};
// Flags kept as one argument when they start with this prefix.
constexpr std::array<std::string_view, 5> kJoinedFlags = {"-std=", "--std=", "--sysroot=", "-stdlib=", "--target="};

std::string absolute(std::string_view value, const fs::path& directory) {
  fs::path path(value);
  if (path.is_absolute() || directory.empty()) return std::string(value);
  return (directory / path).lexically_normal().string();
}

}  // namespace

std::optional<fs::path> find_compile_database(const fs::path& file, const fs::path& explicit_dir) {
  if (!explicit_dir.empty()) {
    if (has_database(explicit_dir)) return explicit_dir;
    return std::nullopt;
  }
  std::error_code error;
  fs::path directory = fs::absolute(file, error).parent_path();
  if (error) return std::nullopt;
  for (;;) {
    if (has_database(directory)) return directory;
    if (has_database(directory / "build")) return directory / "build";
    fs::path parent = directory.parent_path();
    if (parent == directory || parent.empty()) return std::nullopt;
    directory = parent;
  }
}

std::vector<std::string> parsing_arguments(const std::vector<std::string>& command_line, const fs::path& directory) {
  std::vector<std::string> kept;
  // The first argument is the compiler.
  for (size_t i = 1; i < command_line.size(); ++i) {
    std::string_view argument = command_line[i];
    bool matched = false;
    for (const KeptFlag& flag : kValueFlags) {
      if (!argument.starts_with(flag.name)) continue;
      std::string_view value = argument.substr(flag.name.size());
      if (value.empty()) {
        if (i + 1 >= command_line.size()) break;
        value = command_line[++i];
      }
      kept.emplace_back(flag.name);
      kept.push_back(flag.path ? absolute(value, directory) : std::string(value));
      matched = true;
      break;
    }
    if (matched) continue;
    for (std::string_view prefix : kJoinedFlags) {
      if (argument.starts_with(prefix)) {
        kept.emplace_back(argument);
        break;
      }
    }
  }
  return kept;
}

std::optional<CompileCommand> compile_command_for(const fs::path& database_dir, const fs::path& file) {
  std::shared_ptr<CompilationDatabase> database = load(database_dir);
  if (!database) return std::nullopt;
  std::error_code error;
  fs::path absolute_file = fs::absolute(file, error).lexically_normal();
  if (error) return std::nullopt;
  const LibclangApi& api = libclang();
  CompileCommands commands(
      api.clang_CompilationDatabase_getCompileCommands(database->get(), absolute_file.string().c_str()));
  if (!commands || api.clang_CompileCommands_getSize(commands.get()) == 0) return std::nullopt;
  CXCompileCommand command = api.clang_CompileCommands_getCommand(commands.get(), 0);
  CompileCommand result;
  result.directory = take_string(api.clang_CompileCommand_getDirectory(command));
  result.file = absolute_file;
  std::vector<std::string> command_line;
  for (unsigned i = 0, n = api.clang_CompileCommand_getNumArgs(command); i < n; ++i) {
    command_line.push_back(take_string(api.clang_CompileCommand_getArg(command, i)));
  }
  result.arguments = parsing_arguments(command_line, result.directory);
  return result;
}

}  // namespace torchmigrate::cxx
