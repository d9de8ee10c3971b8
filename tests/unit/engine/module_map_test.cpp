// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "../temp_dir.hpp"

#include <fstream>
#include <unistd.h>

#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/module_map.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

// A project directory of its own for each test (a pyproject.toml marks its root).
struct PackageTree : testing::TempDir {
  const fs::path& root = path;
  PackageTree() { write("pyproject.toml", ""); }
};

ModuleLocation located(const fs::path& file) {
  std::optional<ModuleLocation> location = locate_module(file);
  REQUIRE(location);
  return *location;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_CASE("a file's module name comes from the packages above it") {
  PackageTree project;
  project.write("pkg/__init__.py", "");
  project.write("pkg/sub/__init__.py", "");
  fs::path module = project.write("pkg/sub/mod.py", "");
  ModuleLocation location = located(module);
  CHECK(location.name == "pkg.sub.mod");
  CHECK(location.root == project.root);
  CHECK_FALSE(location.is_package);

  ModuleLocation package = located(project.root / "pkg/sub/__init__.py");
  CHECK(package.name == "pkg.sub");
  CHECK(package.is_package);
}

TEST_CASE("a file outside packages is a top-level module, except under src/") {
  PackageTree project;
  CHECK(located(project.write("tools/run.py", "")).name == "run");
  ModuleLocation layout = located(project.write("src/ns/mod.py", ""));
  CHECK(layout.name == "ns.mod");
  CHECK(layout.root == project.root / "src");
  // A package under src/ needs no special case: its parent is the root anyway.
  project.write("src/pkg/__init__.py", "");
  CHECK(located(project.write("src/pkg/core.py", "")).root == project.root / "src");
}

TEST_CASE("a file Python cannot import by name has no module") {
  PackageTree project;
  CHECK_FALSE(locate_module(project.write("tools/run-me.py", "")));
  CHECK_FALSE(locate_module(project.write("tools/notes.txt", "")));
}

TEST_CASE("a module name leads to its file or its package's __init__") {
  PackageTree project;
  fs::path init = project.write("pkg/__init__.py", "");
  fs::path mod = project.write("pkg/mod.py", "");
  CHECK(module_file(project.root, "pkg") == init);
  CHECK(module_file(project.root, "pkg.mod") == mod);
  CHECK_FALSE(module_file(project.root, "pkg.missing"));
  CHECK_FALSE(module_file(project.root, "torchao.quantization"));
}

TEST_CASE("top-level imports include blocks and class bodies, not function bodies") {
  std::vector<std::string> imports = top_level_imports(
      "import a.b as ab\n"
      "from c import d, e as f\n"
      "if flag:\n    import g\n"
      "try:\n    import h\nexcept ImportError:\n    import i\n"
      "class K:\n    import j\n"
      "def run():\n    import never\n"
      "from typing import TYPE_CHECKING\n"
      "if TYPE_CHECKING:\n    import typing_only\nelse:\n    import runtime\n",
      "pkg.mod", false);
  for (const char* name : {"a.b", "c", "c.d", "c.e", "g", "h", "i", "j", "runtime"}) {
    INFO(name);
    CHECK(contains(imports, name));
  }
  CHECK_FALSE(contains(imports, "never"));
  CHECK_FALSE(contains(imports, "typing_only"));
}

TEST_CASE("relative imports resolve against the module or the package") {
  std::vector<std::string> from_module =
      top_level_imports("from . import sibling\nfrom .other import x\nfrom .. import up\n", "pkg.sub.mod", false);
  CHECK(contains(from_module, "pkg.sub.sibling"));
  CHECK(contains(from_module, "pkg.sub.other"));
  CHECK(contains(from_module, "pkg.up"));
  std::vector<std::string> from_package = top_level_imports("from .core import x\n", "pkg.sub", true);
  CHECK(contains(from_package, "pkg.sub.core"));
  // Climbing above the top-level package resolves to nothing.
  CHECK(top_level_imports("from ... import x\n", "pkg.mod", false).empty());
}

TEST_CASE("a target imports a module back directly, through others, or not at all") {
  PackageTree project;
  project.write("pkg/__init__.py", "");
  project.write("pkg/entry.py", "from ._compat import legacy\n");
  project.write("pkg/chain.py", "import pkg.entry\n");
  project.write("pkg/lazy.py", "def load():\n    from . import _compat\n");
  ModuleLocation compat = located(project.write("pkg/_compat.py", ""));
  ModuleMap map;
  CHECK(map.imports_back(compat, "pkg._compat"));
  CHECK(map.imports_back(compat, "pkg.entry"));
  CHECK(map.imports_back(compat, "pkg.chain"));
  CHECK_FALSE(map.imports_back(compat, "pkg.lazy"));
  CHECK_FALSE(map.imports_back(compat, "torchao.quantization.pt2e"));
}

TEST_CASE("a package above the module is already imported and is not run again") {
  PackageTree project;
  project.write("pkg/__init__.py", "from .mod import thing\n");
  project.write("pkg/other.py", "");
  ModuleLocation mod = located(project.write("pkg/mod.py", ""));
  ModuleMap map;
  // Importing `pkg.other` finds `pkg` in sys.modules; only naming `pkg` itself reads it.
  CHECK_FALSE(map.imports_back(mod, "pkg.other"));
  CHECK(map.imports_back(mod, "pkg"));
}

TEST_CASE("a changed module is read again") {
  PackageTree project;
  project.write("pkg/__init__.py", "");
  fs::path entry = project.write("pkg/entry.py", "import os\n");
  ModuleLocation compat = located(project.write("pkg/_compat.py", ""));
  ModuleMap map;
  CHECK_FALSE(map.imports_back(compat, "pkg.entry"));
  std::ofstream(entry) << "from pkg import _compat\n";
  CHECK(map.imports_back(compat, "pkg.entry"));
}

TEST_CASE("a fix that would make the module import itself is withheld with the reason") {
  PackageTree project;
  project.write("pkg/__init__.py", "");
  project.write("pkg/entry.py", "from ._compat import legacy\n");
  fs::path self = project.write("pkg/_compat.py", "");
  auto diagnostic_importing = [](std::vector<std::string> modules) {
    Diagnostic diagnostic;
    diagnostic.code = "TM301";
    diagnostic.message = "`x` is deprecated";
    Fix fix;
    fix.edits = {Edit::insert(0, "x")};
    fix.imported_modules = std::move(modules);
    diagnostic.fixes.push_back(std::move(fix));
    return diagnostic;
  };
  std::vector<Diagnostic> diagnostics = {diagnostic_importing({"pkg._compat"}), diagnostic_importing({"pkg.entry"}),
                                         diagnostic_importing({"pkg.other"}), diagnostic_importing({})};
  withhold_self_imports(diagnostics, SourceFile(self.string(), "", Language::Python));
  CHECK(diagnostics[0].fixes.empty());
  CHECK(diagnostics[0].message == "`x` is deprecated; no fix is offered because the new import would make "
                                  "`pkg._compat` import itself");
  CHECK(diagnostics[1].fixes.empty());
  CHECK(diagnostics[1].message == "`x` is deprecated; no fix is offered because `pkg.entry` imports "
                                  "`pkg._compat` back at top level, so the new import would be circular");
  CHECK(diagnostics[2].fixes.size() == 1);
  CHECK(diagnostics[2].message == "`x` is deprecated");
  CHECK(diagnostics[3].fixes.size() == 1);
}
