// SPDX-License-Identifier: MIT
// The project's Python module map: a file's dotted module name from its path, the file of a
// project module, and the modules a module imports while it is being imported. A fix that adds
// an import asks it whether the import would run the file's own module again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchmigrate::engine {

struct ModuleLocation {
  std::string name;            // "pkg.sub.mod"; a package's `__init__.py` is the package itself
  std::filesystem::path root;  // the directory the top-level package lives in (sys.path entry)
  bool is_package = false;     // the file is an `__init__.py`
};

// The module a Python file is, from the directories with `__init__.py` above it. A file in
// no package is a top-level module of its directory, or, under a `src/` directory, of `src`
// (namespace packages of a src layout). nullopt for a name Python cannot import.
std::optional<ModuleLocation> locate_module(const std::filesystem::path& file);

// The file that `import name` would run under `root` (`a/b.py` or `a/b/__init__.py`).
std::optional<std::filesystem::path> module_file(const std::filesystem::path& root, std::string_view name);

// Modules a Python source imports while it is itself imported: imports outside function
// bodies (module level, `if`/`try`/`with` blocks, class bodies). `from x import a` yields
// `x` and `x.a` (which may be a submodule); relative imports are resolved against `module`.
std::vector<std::string> top_level_imports(std::string_view source, std::string_view module, bool is_package);

// Top-level imports of project modules, read on first use and cached by path; an entry is
// read again when its file's size or modification time changes. Thread-safe.
class ModuleMap {
 public:
  // Whether importing `target` from the module at `self` would import `self` again: `target`
  // is `self`, or imports it (directly or through other project modules) at top level.
  // Packages above `self` are already imported while `self` runs, so only a module named
  // explicitly runs one of them again.
  [[nodiscard]] bool imports_back(const ModuleLocation& self, std::string_view target);

 private:
  struct Entry {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::vector<std::string> imports;
  };
  [[nodiscard]] std::vector<std::string> imports_of(const std::filesystem::path& file, std::string_view module,
                                                    bool is_package);

  std::mutex mutex_;
  std::map<std::string, Entry> entries_;  // by path and module name
};

// The map shared by every lint and fix of this process.
ModuleMap& project_module_map();

}  // namespace torchmigrate::engine
