// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/project.hpp"

#include <algorithm>
#include <regex>
#include <string_view>
#include <system_error>

#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/working_directory.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;

namespace {

// A packaging root: pyproject.toml with a `[project]`, `[tool.poetry]` or `[tool.torchmigrate]`
// table, or a setup.py that calls setup() from setuptools or distutils (an ordinary module that
// happens to be named setup.py, like a trainer's `setup.py`, is none).
bool defines_package(const fs::path& file) {
  std::optional<std::string> read = read_file(file).text;
  if (!read) return false;
  const std::string& text = *read;
  if (file.filename() == "pyproject.toml") {
    static const std::regex table(R"((^|\n)\s*\[\s*(project|tool\.poetry|tool\.torchmigrate)\s*\])");
    return std::regex_search(text, table);
  }
  static const std::regex imports(R"(\b(import|from)\s+(setuptools|distutils)\b)");
  static const std::regex call(R"(\bsetup\s*\()");
  return std::regex_search(text, imports) && std::regex_search(text, call);
}

// A directory is a project's root when it holds a torchmigrate configuration, a file that pins
// torch, or a package's definition; the top of a repository (`.git`) is the outer edge. Every
// directory of a walk is asked: its listing answers, and only a candidate file is read.
bool is_project_edge(const fs::path& directory, DirectoryListings& listings) {
  if (listings.has(directory.native(), ".git")) return true;
  return listings.has_regular_file_where(directory.native(), [&](std::string_view name) {
    if (name == ".torchmigrate.toml" || name == "torchmigrate.toml" || name == "setup.cfg") return true;
    if (!is_pin_file_name(name)) return false;
    fs::path file = directory / name;
    if ((name == "pyproject.toml" || name == "setup.py") && defines_package(file)) return true;
    return names_torch(file);
  });
}

fs::path start_directory(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) absolute = fs::absolute(path, error).lexically_normal();
  return fs::is_directory(absolute, error) ? absolute : absolute.parent_path();
}

// The per-directory memos keep paths as strings: a path object also keeps each of its
// components, and there is an entry for every directory of the tree.
std::optional<std::string> as_string(const std::optional<fs::path>& path) {
  return path ? std::optional<std::string>(path->native()) : std::nullopt;
}
std::optional<fs::path> as_path(const std::optional<std::string>& path) {
  return path ? std::optional<fs::path>(*path) : std::nullopt;
}

}  // namespace

Project::Project(fs::path root, TorchRange torch_range, FileLister files, buildfiles::ExtraExtensions extensions)
    : root_(std::move(root)), torch_range_(std::move(torch_range)), files_(std::move(files)),
      extensions_(std::move(extensions)) {}

std::shared_ptr<const Project> Project::with_facts(ProjectFacts facts, fs::path root) {
  auto project = std::make_shared<Project>(std::move(root), TorchRange{}, nullptr, buildfiles::ExtraExtensions{});
  project->gathered_.call([&] { project->facts_ = facts; });
  return project;
}

const std::vector<DiscoveredFile>& Project::listed_files() const {
  std::call_once(listed_, [this] {
    if (files_) listed_files_ = files_();
  });
  return listed_files_;
}

const ProjectFacts& Project::facts() const {
  gathered_.call([this] {
    if (!files_) return;
    LoopRunner parallel = [this](size_t count, const std::function<void(size_t)>& body) {
      gathered_.parallel_for(count, body);
    };
    facts_ = gather_project_facts(
        {.root = root_, .files = listed_files(), .extensions = extensions_, .parallel = parallel, .inputs = &inputs_});
  });
  return facts_;
}

const nlohmann::json& Project::fact_keys(const FactMemo* memo) const {
  std::call_once(keyed_, [this, memo] {
    keys_ = std::make_unique<nlohmann::json>(nlohmann::json::object());
    bool memoised = memo != nullptr && files_ && !root_.empty();
    if (memoised) {
      if (std::optional<StoredFacts> stored = memo->recall(root_.string())) {
        nlohmann::json keys = nlohmann::json::parse(stored->keys, nullptr, false);
        if (!keys.is_discarded() && keys.is_object() &&
            inputs_signature(listed_files(), stored->extra_paths).hash == stored->signature) {
          *keys_ = std::move(keys);
          return;
        }
      }
    }
    add_fact_keys(facts(), all_facts(), *keys_);
    if (!memoised) return;
    // Stamped after gathering: an input changed meanwhile has a time within the run, and the
    // memo keeps nothing so recent (FactMemo::remember).
    InputsSignature signature = inputs_signature(listed_files(), inputs_.extra_paths);
    memo->remember(root_.string(), {inputs_.extra_paths, signature.hash, keys_->dump()}, signature.newest_ns);
  });
  return *keys_;
}

fs::path project_root_of(const fs::path& path) {
  fs::path start = start_directory(path);
  DirectoryListings listings;
  for (fs::path directory = start;; directory = directory.parent_path()) {
    if (is_project_edge(directory, listings)) return directory;
    if (directory == directory.parent_path()) return start;
  }
}

ProjectIndex::ProjectIndex(ListerFactory lister, buildfiles::ExtraExtensions extensions, DirectoryListings* listings)
    : lister_(std::move(lister)),
      extensions_(std::move(extensions)),
      listings_(listings != nullptr ? *listings : own_listings_) {}

fs::path ProjectIndex::root_of(const fs::path& path) {
  std::error_code error;
  return root_of(path, fs::symlink_status(path, error));
}

fs::path ProjectIndex::root_of(const fs::path& path, const fs::file_status& link) {
  std::lock_guard lock(mutex_);
  // A regular file starts from its directory, so its directory decides.
  std::string directory;
  if (fs::is_regular_file(link)) {
    directory = path.parent_path().native();
    if (auto it = file_directory_roots_.find(directory); it != file_directory_roots_.end()) return it->second;
  }
  fs::path start = start_of(path, link);
  std::optional<fs::path> edge = nearest_edge(start);
  fs::path root = edge ? *edge : fallback_root(start);
  if (fs::is_regular_file(link)) file_directory_roots_.emplace(std::move(directory), root.native());
  return root;
}

// As start_directory, but each directory is resolved once: canonicalising every file's whole path
// costs a readlink per component. An entry that is no link is its real directory plus its name.
fs::path ProjectIndex::start_of(const fs::path& path, const fs::file_status& link) {
  fs::path absolute = absolute_path(path);
  fs::path name = absolute.filename();
  bool plain = fs::is_regular_file(link) || fs::is_directory(link);
  if (!plain || name.empty() || name == "." || name == "..") return start_directory(path);
  std::optional<fs::path> parent = real_directory(absolute.parent_path());
  if (!parent) return start_directory(path);
  return fs::is_directory(link) ? *parent / name : *parent;
}

std::optional<fs::path> ProjectIndex::real_directory(const fs::path& directory) {
  if (auto it = real_directories_.find(directory.native()); it != real_directories_.end()) return as_path(it->second);
  // A walk that listed the directory knows its real path.
  if (std::optional<std::string> walked = listings_.real_path(directory.native())) {
    real_directories_.emplace(directory.native(), *walked);
    return fs::path(std::move(*walked));
  }
  std::optional<fs::path> real;
  std::error_code error;
  fs::path name = directory.filename();
  if (directory.has_relative_path() && !name.empty() && name != "." && name != ".." &&
      fs::is_directory(fs::symlink_status(directory, error))) {
    // No link: the parent's real path plus the name, so ancestors are resolved once too.
    if (std::optional<fs::path> parent = real_directory(directory.parent_path())) real = *parent / name;
  }
  if (!real) {
    fs::path resolved = fs::canonical(directory, error);
    if (!error) real = std::move(resolved);
  }
  real_directories_.emplace(directory.native(), as_string(real));
  return real;
}

// Memoised per directory, so a walk over many files lists each ancestor once.
std::optional<fs::path> ProjectIndex::nearest_edge(const fs::path& directory) {
  if (auto it = edges_.find(directory.native()); it != edges_.end()) return as_path(it->second);
  std::optional<fs::path> edge;
  if (is_project_edge(directory, listings_)) {
    edge = directory;
  } else if (directory != directory.parent_path()) {
    edge = nearest_edge(directory.parent_path());
  }
  edges_.emplace(directory.native(), as_string(edge));
  return edge;
}

std::shared_ptr<const Project> ProjectIndex::project_of(const fs::path& path) {
  std::error_code error;
  return project_of(path, fs::symlink_status(path, error));
}

std::shared_ptr<const Project> ProjectIndex::project_of(const fs::path& path, const fs::file_status& link) {
  return project_at(root_of(path, link));
}

std::shared_ptr<const Project> ProjectIndex::project_at(const fs::path& root) {
  std::lock_guard lock(mutex_);
  auto it = projects_.find(root);
  if (it == projects_.end()) {
    auto project = std::make_shared<Project>(root, range_of(root), lister_ ? lister_(root) : nullptr, extensions_);
    it = projects_.emplace(root, std::move(project)).first;
  }
  return it->second;
}

// A project that pins no torch supports what the project around it supports: a package inside a
// repository whose top-level requirements pin torch, a folder with a configuration of its own.
TorchRange ProjectIndex::range_of(const fs::path& root) {
  TorchRange range = project_torch_range(root);
  if (range.pinned() || root == root.parent_path()) return range;
  if (listings_.has(root.native(), ".git")) return range;  // a repository's top is the outer edge
  // Outside any repository, the run's common directory is.
  if (run_root_ && root == *run_root_ && !inside_repository(root)) return range;
  std::optional<fs::path> outer = nearest_edge(root.parent_path());
  if (!outer) return range;
  const TorchRange& enclosing = project_at(*outer)->torch_range();
  if (!enclosing.pinned()) return range;
  TorchRange inherited = enclosing;
  inherited.notes = range.notes;
  inherited.warnings.clear();
  inherited.files = range.files;
  if (inherited.inherited_files.empty()) inherited.inherited_files = enclosing.files;
  if (inherited.inherited_from.empty()) inherited.inherited_from = outer->string();
  return inherited;
}

bool ProjectIndex::inside_repository(const fs::path& directory) {
  for (fs::path at = directory;; at = at.parent_path()) {
    if (listings_.has(at.native(), ".git")) return true;
    if (at == at.parent_path()) return false;
  }
}

void ProjectIndex::set_run_root(const fs::path& directory) {
  std::lock_guard lock(mutex_);
  run_root_ = directory;
}

// Outside any project and repository, the run's common directory is the one project (every
// directory its own project would split one tree into dozens); a path outside it keeps its own.
fs::path ProjectIndex::fallback_root(const fs::path& start) const {
  if (run_root_) {
    fs::path relative = start.lexically_relative(*run_root_);
    if (!relative.empty() && *relative.begin() != "..") return *run_root_;
  }
  return start;
}

std::vector<std::shared_ptr<const Project>> ProjectIndex::projects() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const Project>> all;
  for (const auto& [root, project] : projects_) all.push_back(project);
  return all;
}

}  // namespace torchmigrate::engine
