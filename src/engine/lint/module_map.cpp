// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/module_map.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;
namespace {

// A name `import` accepts as one component (non-ASCII letters are let through unchecked).
bool is_identifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9')) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte >= 0x80 || byte == '_' || (byte >= '0' && byte <= '9') || ((byte | 0x20) >= 'a' && (byte | 0x20) <= 'z');
  });
}

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

std::string join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : ".") + part;
  return joined;
}

// `a.b` from a dotted_name node, whatever whitespace or comments sit between its parts.
std::string dotted(python::Node node) {
  if (node.kind() != "dotted_name") return std::string(node.text());
  std::vector<std::string> parts;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    python::Node part = node.named_child(i);
    if (part.kind() == "identifier") parts.emplace_back(part.text());
  }
  return join(parts);
}

// The absolute module a `from <relative> import` names, or empty when it climbs above the top.
std::string resolve_relative(python::Node relative, std::string_view module, bool is_package) {
  size_t dots = 0;
  std::string rest;
  for (uint32_t i = 0; i < relative.child_count(); ++i) {
    python::Node child = relative.child(i);
    if (child.kind() == "import_prefix") dots = static_cast<size_t>(std::count(child.text().begin(), child.text().end(), '.'));
    if (child.kind() == "dotted_name") rest = dotted(child);
  }
  if (dots == 0) return {};
  // One dot is the package the module is in (a package's `__init__` is in itself).
  std::string base(module);
  size_t climbs = dots - (is_package ? 1 : 0);
  for (size_t i = 0; i < climbs; ++i) {
    size_t dot = base.rfind('.');
    if (dot == std::string::npos) return {};
    base.resize(dot);
  }
  if (base.empty()) return {};
  return rest.empty() ? base : base + "." + rest;
}

// `if TYPE_CHECKING:` bodies never run.
bool is_type_checking(python::Node condition) {
  return condition && (condition.text() == "TYPE_CHECKING" || condition.text() == "typing.TYPE_CHECKING");
}

// A directory that holds a project's own configuration: the search for a `src/` layout stops
// there, so a `src` directory above the project never names its modules.
bool is_project_root(const fs::path& directory) {
  for (const char* marker : {"pyproject.toml", "setup.py", "setup.cfg", ".git"}) {
    std::error_code error;
    if (fs::exists(directory / marker, error)) return true;
  }
  return false;
}

}  // namespace

std::optional<ModuleLocation> locate_module(const fs::path& file) {
  std::error_code error;
  fs::path path = fs::absolute(file, error).lexically_normal();
  if (error || path.extension() != ".py") return std::nullopt;
  ModuleLocation location;
  location.is_package = path.stem() == "__init__";
  std::vector<std::string> parts;  // innermost first
  if (!location.is_package) parts.push_back(path.stem().string());
  fs::path directory = path.parent_path();
  bool in_package = false;
  while (is_file(directory / "__init__.py") && is_identifier(directory.filename().string())) {
    parts.push_back(directory.filename().string());
    in_package = true;
    if (directory.parent_path() == directory) break;
    directory = directory.parent_path();
  }
  location.root = directory;
  if (!in_package) {
    // Namespace packages of a src layout: `src/pkg/mod.py` without `__init__.py` is `pkg.mod`.
    std::vector<std::string> between;
    for (fs::path up = directory; up.has_relative_path() && up.parent_path() != up; up = up.parent_path()) {
      if (up.filename() == "src") {
        parts.insert(parts.end(), between.begin(), between.end());
        location.root = up;
        break;
      }
      if (!is_identifier(up.filename().string()) || is_project_root(up)) break;
      between.push_back(up.filename().string());
    }
  }
  if (parts.empty() || !std::all_of(parts.begin(), parts.end(), [](const std::string& p) { return is_identifier(p); })) {
    return std::nullopt;
  }
  std::reverse(parts.begin(), parts.end());
  location.name = join(parts);
  return location;
}

std::optional<fs::path> module_file(const fs::path& root, std::string_view name) {
  fs::path path = root;
  for (size_t start = 0;;) {
    size_t dot = name.find('.', start);
    std::string_view part = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!is_identifier(part)) return std::nullopt;
    path /= std::string(part);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  fs::path module = path;
  module += ".py";
  if (is_file(module)) return module;
  if (is_file(path / "__init__.py")) return path / "__init__.py";
  return std::nullopt;
}

std::vector<std::string> top_level_imports(std::string_view source, std::string_view module, bool is_package) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  std::vector<std::string> imports;
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    std::string_view kind = node.kind();
    // A function body runs when called, not when the module is imported.
    if (kind == "function_definition" || kind == "lambda") continue;
    if (kind == "import_statement") {
      for (python::Node item : node.children_of_field("name")) {
        imports.push_back(dotted(item.kind() == "aliased_import" ? item.field("name") : item));
      }
      continue;
    }
    if (kind == "import_from_statement") {
      python::Node from = node.field("module_name");
      std::string base = from.kind() == "relative_import" ? resolve_relative(from, module, is_package) : dotted(from);
      if (base.empty()) continue;
      imports.push_back(base);
      for (python::Node item : node.children_of_field("name")) {
        imports.push_back(base + "." + dotted(item.kind() == "aliased_import" ? item.field("name") : item));
      }
      continue;
    }
    python::Node skipped;
    if (kind == "if_statement" && is_type_checking(node.field("condition"))) skipped = node.field("consequence");
    for (uint32_t i = node.named_child_count(); i-- > 0;) {
      if (!(node.named_child(i) == skipped)) stack.push_back(node.named_child(i));
    }
  }
  return imports;
}

bool ModuleMap::imports_back(const ModuleLocation& self, std::string_view target) {
  auto above_self = [&](std::string_view name) {
    return self.name.size() > name.size() && self.name.starts_with(name) && self.name[name.size()] == '.';
  };
  std::vector<std::string> pending;
  // `import a.b.c` runs `a`, `a.b` and `a.b.c`; the packages above `self` are imported already.
  auto push = [&](std::string_view name) {
    pending.emplace_back(name);
    for (size_t dot = name.rfind('.'); dot != std::string_view::npos && dot > 0; dot = name.rfind('.', dot - 1)) {
      if (!above_self(name.substr(0, dot))) pending.emplace_back(name.substr(0, dot));
    }
  };
  push(target);
  std::set<std::string> seen;
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(name).second) continue;
    if (name == self.name) return true;
    std::optional<fs::path> file = module_file(self.root, name);
    if (!file) continue;  // not a module of this project
    for (const std::string& imported : imports_of(*file, name, file->filename() == "__init__.py")) push(imported);
  }
  return false;
}

std::vector<std::string> ModuleMap::imports_of(const fs::path& file, std::string_view module, bool is_package) {
  std::error_code error;
  std::uintmax_t size = fs::file_size(file, error);
  if (error) return {};
  fs::file_time_type modified = fs::last_write_time(file, error);
  if (error) return {};
  std::string key = file.string() + '\0' + std::string(module);
  {
    std::lock_guard lock(mutex_);
    auto found = entries_.find(key);
    if (found != entries_.end() && found->second.size == size && found->second.modified == modified) {
      return found->second.imports;
    }
  }
  ReadResult read = read_file(file);
  if (!read.text) return {};
  DecodedSource decoded = decode_source(std::move(*read.text));
  if (!decoded.skip_reason.empty()) return {};
  std::vector<std::string> imports = top_level_imports(decoded.text, module, is_package);
  std::lock_guard lock(mutex_);
  entries_[key] = {size, modified, imports};
  return imports;
}

ModuleMap& project_module_map() {
  static ModuleMap map;
  return map;
}

}  // namespace torchmigrate::engine
