// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/discovery.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "torchmigrate/engine/workspace/working_directory.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

Language language_for(const fs::path& path) {
  std::string extension = path.extension().string();
  if (extension == ".py" || extension == ".pyi") return Language::Python;
  if (extension == ".ipynb") return Language::Notebook;
  for (std::string_view cxx : {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh"}) {
    if (extension == cxx) return Language::Cxx;
  }
  // setup.py stays Python; the linter also runs the build rules on it.
  if (buildfiles::kind_for(path) != buildfiles::FileKind::Unknown) return Language::BuildFile;
  return Language::Unknown;
}

Language language_for(const fs::path& path, const buildfiles::ExtraExtensions& build_extensions) {
  Language language = language_for(path);
  if (language != Language::Unknown) return language;
  return buildfiles::kind_for(path, build_extensions) != buildfiles::FileKind::Unknown ? Language::BuildFile
                                                                                       : Language::Unknown;
}

bool path_order(std::string_view a, std::string_view b) {
  // std::filesystem::path puts a relative path before an absolute one, then compares components:
  // on strings that is a separator sorting before every other byte.
  bool a_absolute = a.starts_with('/'), b_absolute = b.starts_with('/');
  if (a_absolute != b_absolute) return b_absolute;
  auto rank = [](char c) { return c == '/' ? 0 : static_cast<unsigned char>(c) + 1; };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](char x, char y) { return rank(x) < rank(y); });
}

bool is_default_excluded(const std::string& name) {
  static constexpr std::array<std::string_view, 16> kExcluded = {
      ".git",        ".hg",           ".svn",        ".venv",        "venv",          ".tox",  ".nox", ".mypy_cache",
      ".ruff_cache", ".pytest_cache", "__pycache__", "node_modules", "site-packages", "build", "dist", ".eggs"};
  return std::find(kExcluded.begin(), kExcluded.end(), name) != kExcluded.end();
}

namespace {

// Whether `path` lies in `root` (both canonical), and no default-excluded directory sits between.
std::optional<fs::path> inside(const fs::path& path, const fs::path& root) {
  fs::path relative = path.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  for (auto part = relative.begin(); part != relative.end(); ++part) {
    if (std::next(part) != relative.end() && is_default_excluded(part->string())) return std::nullopt;
  }
  return relative;
}

struct Found {
  DiscoveredFile file;
  std::string real;  // canonical path, so one file reached by two names is checked once
};

// Joins a normal directory and a relative path of plain components.
std::string joined(const std::string& directory, std::string_view relative) {
  if (directory == ".") return std::string(relative);
  std::string path = directory;
  if (!path.ends_with('/')) path += '/';
  return path.append(relative);
}

// Where the walk of `root` (normal) reached `path`, below it: directory entries' names, never
// `.` or `..`, so string joins give normal and real paths with none of std::filesystem's
// component lists. Nothing when `path` is not spelled as the root and then names.
std::optional<std::string_view> below_root(const fs::path& root, const fs::path& path) {
  std::string_view walked = path.native();
  const std::string& top = root.native();
  size_t skip = top.size() + (top.ends_with('/') ? 0 : 1);
  if (walked.size() > skip && walked.starts_with(top) && (top.ends_with('/') || walked[top.size()] == '/')) {
    return walked.substr(skip);
  }
  return std::nullopt;
}

// The real path of what the walk reached at `path` without a link.
std::string walked_real(const fs::path& root, const fs::path& real_root, const fs::path& path) {
  if (path == root) return real_root.native();
  if (std::optional<std::string_view> relative = below_root(root, path)) return joined(real_root.native(), *relative);
  return (real_root / path.lexically_relative(root)).lexically_normal().string();
}

// A regular file the walk of `root` reached without a link.
Found walked_file(const fs::path& root, const fs::path& real_root, const fs::path& path, Language language) {
  std::optional<std::string_view> relative = below_root(root, path);
  std::string normal = relative ? joined(root.native(), *relative) : path.lexically_normal().string();
  return {{std::move(normal), language, nullptr, true}, walked_real(root, real_root, path)};
}

// A link met while walking `root`: its real file is checked when it lies inside the tree.
void add_link(const fs::path& link, const fs::path& root, const fs::path& real_root,
              const buildfiles::ExtraExtensions& build_extensions, std::vector<Found>& found, Discovery& result) {
  std::error_code error;
  bool is_directory = fs::is_directory(link, error);
  if (language_for(link, build_extensions) == Language::Unknown && !is_directory) return;
  fs::path real = fs::canonical(link, error);
  if (error) {
    if (!is_directory) result.notes.push_back(link.string() + ": broken symbolic link; skipped");
    return;
  }
  bool outside = !real.lexically_relative(real_root).empty() && *real.lexically_relative(real_root).begin() == "..";
  if (is_directory) {
    if (is_default_excluded(link.filename().string())) return;
    // Never followed (no cycles, no escape); one inside the tree is walked under its real name.
    if (outside) {
      result.notes.push_back(link.string() + ": symbolic link to a directory outside the checked tree; not followed");
    }
    return;
  }
  if (!fs::is_regular_file(real, error)) return;
  std::optional<fs::path> relative = inside(real, real_root);
  if (!relative) {
    if (outside) {
      result.notes.push_back(link.string() + ": symbolic link to a file outside the checked tree (" + real.string() +
                             "); skipped");
    }
    return;
  }
  Language language = language_for(real, build_extensions);
  if (language == Language::Unknown) language = language_for(link, build_extensions);
  found.push_back({{(root / *relative).lexically_normal().string(), language, nullptr, true}, real.string()});
}

// A directory's entries as readdir gives them: each name and its d_type.
using Entries = std::vector<std::pair<std::string, unsigned char>>;

// Reads a directory's entries with one open, one fstat and getdents64, without opendir's own
// fstat and buffer. `searchable` tells whether its entries can be opened: a directory readable
// without the search (x) permission lists its names and no more.
bool read_entries(const fs::path& directory, Entries& entries, bool& searchable, std::error_code& error) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat info {};
  if (fd < 0 || ::fstat(fd, &info) != 0) {
    error = std::error_code(errno, std::generic_category());
    if (fd >= 0) ::close(fd);
    return false;
  }
  // The owner's search bit is all an access list leaves to the owner, and root searches any
  // directory: only someone else's directory needs the kernel's answer.
  uid_t user = ::geteuid();
  searchable =
      user == 0 || (info.st_uid == user && (info.st_mode & S_IXUSR) != 0) || ::access(directory.c_str(), X_OK) == 0;
  alignas(dirent64) std::array<char, 16384> buffer;
  for (;;) {
    ssize_t got = ::getdents64(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      error = std::error_code(errno, std::generic_category());
      ::close(fd);
      return false;
    }
    if (got == 0) break;
    for (ssize_t at = 0; at < got;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buffer.data() + at);
      std::string_view name = entry->d_name;
      if (name != "." && name != "..") entries.emplace_back(name, entry->d_type);
      at += entry->d_reclen;
    }
  }
  ::close(fd);
  // By name, so that the depth-first walk of one root meets its files in path_order.
  std::sort(entries.begin(), entries.end());
  return true;
}

// What an entry is, from its d_type; an lstat when the file system gives none.
fs::file_type type_of(const fs::path& path, unsigned char type) {
  switch (type) {
    case DT_LNK: return fs::file_type::symlink;
    case DT_DIR: return fs::file_type::directory;
    case DT_REG: return fs::file_type::regular;
    case DT_UNKNOWN: {
      std::error_code error;
      return fs::symlink_status(path, error).type();
    }
    default: return fs::file_type::unknown;  // a FIFO, socket or device: no source
  }
}

// A directory being walked: its entries, and the next one to look at.
struct Frame {
  fs::path directory;
  Entries entries;
  size_t next = 0;
};

// One discovery: the files found under each path given, in the order found.
class Discoverer {
 public:
  Discoverer(const buildfiles::ExtraExtensions& build_extensions, const DiscoveryFilter* filter, Discovery& result)
      : build_extensions_(build_extensions), filter_(filter), result_(result) {}

  void add(const std::string& argument);
  // Sorts what was found into the result, each file once.
  void finish();

 private:
  Language front(const fs::path& path) const {
    return filter_ != nullptr && filter_->language ? filter_->language(path) : language_for(path, build_extensions_);
  }
  bool excluded(const fs::path& path, bool directory) const {
    return filter_ != nullptr && filter_->excluded && filter_->excluded(path, directory);
  }
  void announce_last() const {
    if (filter_ != nullptr && filter_->found) filter_->found(found_.back().file, found_.back().real);
  }
  fs::path real_path(const fs::path& path, const fs::file_status& link, std::error_code& error);
  void add_named_file(const std::string& argument, const fs::path& root, const fs::file_status& link,
                      const fs::path& real_root);
  Frame read(const fs::path& directory, const fs::path& root, const fs::path& real_root, bool& searchable,
             std::error_code& failure) const;
  void walk(const std::string& argument, const fs::path& root, const fs::path& real_root);
  void enter(std::vector<Frame>& frames, const fs::path& path, const fs::path& root, const fs::path& real_root);
  void add_unknown_note();

  const buildfiles::ExtraExtensions& build_extensions_;
  const DiscoveryFilter* filter_;
  Discovery& result_;
  std::vector<Found> found_;
  std::vector<std::string> unknown_;  // named files of no kind any front reads
  // A named file that is no link is its directory's real path plus its name: canonicalising each
  // of many named files (pre-commit, a shell glob) costs a readlink per component.
  std::unordered_map<std::string, std::optional<fs::path>> real_directories_;
};

fs::path Discoverer::real_path(const fs::path& path, const fs::file_status& link, std::error_code& error) {
  if (fs::is_symlink(link) || !path.has_filename() || path.filename() == "." || path.filename() == "..") {
    return fs::canonical(path, error);
  }
  fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  auto [it, inserted] = real_directories_.try_emplace(directory.native());
  if (inserted) {
    fs::path real = fs::canonical(directory, error);
    if (!error) it->second = std::move(real);
  }
  if (!it->second) return fs::canonical(path, error);
  return *it->second / path.filename();
}

void Discoverer::add(const std::string& argument) {
  fs::path root = fs::path(argument).lexically_normal();
  std::error_code error;
  fs::file_status link = fs::symlink_status(root, error);
  fs::file_status status = fs::is_symlink(link) ? fs::status(root, error) : link;
  if (error || !fs::exists(status)) {
    result_.errors.push_back(argument + ": no such file or directory");
    result_.missing.push_back(argument);
    return;
  }
  fs::path real_root = real_path(root, link, error);
  if (error) {
    result_.errors.push_back(argument + ": " + error.message());
    result_.missing.push_back(argument);
    return;
  }
  bool directory = fs::is_directory(status);
  if (filter_ != nullptr && filter_->force_exclude && excluded(root, directory)) return;
  if (!directory) {
    add_named_file(argument, root, link, real_root);
    return;
  }
  walk(argument, root, real_root);
}

void Discoverer::add_named_file(const std::string& argument, const fs::path& root, const fs::file_status& link,
                                const fs::path& real_root) {
  // Named explicitly: checked even through a link, unless no front reads it.
  Language language = front(root);
  if (language == Language::Unknown) {
    unknown_.push_back(argument);
  } else {
    // A regular file named as itself, not through a link, is as plain as one a walk reaches.
    found_.push_back({{root.string(), language, nullptr, fs::is_regular_file(link)}, real_root.string()});
    announce_last();
  }
}

// Read before the filters ask about the directory itself (its configuration is in it).
Frame Discoverer::read(const fs::path& directory, const fs::path& root, const fs::path& real_root, bool& searchable,
                       std::error_code& failure) const {
  Frame frame{directory, {}, 0};
  if (read_entries(directory, frame.entries, searchable, failure) && filter_ != nullptr &&
      filter_->listings != nullptr) {
    filter_->listings->adopt(absolute_path(directory).lexically_normal().native(), frame.entries,
                             walked_real(root, real_root, directory));
  }
  return frame;
}

// Each directory is read once, depth first; its entries also answer the filters' questions
// about it (configuration files, .git, .gitignore), so they need not read it again.
void Discoverer::walk(const std::string& argument, const fs::path& root, const fs::path& real_root) {
  std::vector<Frame> frames;
  // A directory that cannot be read for want of permission is skipped, as by
  // recursive_directory_iterator's skip_permission_denied; another failure ends the root's walk.
  std::error_code error;
  bool root_searchable = true;
  frames.push_back(read(root, root, real_root, root_searchable, error));
  if (error) {
    if (error != std::errc::permission_denied) result_.errors.push_back(argument + ": " + error.message());
    return;
  }
  while (!frames.empty()) {
    Frame& frame = frames.back();
    if (frame.next == frame.entries.size()) {
      frames.pop_back();
      continue;
    }
    const auto& [name, type] = frame.entries[frame.next++];
    fs::path path = frame.directory / name;
    fs::file_type kind = type_of(path, type);
    if (kind == fs::file_type::symlink) {
      size_t before = found_.size();
      add_link(path, root, real_root, build_extensions_, found_, result_);
      if (found_.size() > before) announce_last();
      continue;
    }
    if (kind == fs::file_type::directory) {
      if (!is_default_excluded(name)) enter(frames, path, root, real_root);
      continue;
    }
    Language language = front(path);
    if (language != Language::Unknown && kind == fs::file_type::regular && !excluded(path, false)) {
      // No link was followed to get here, so the real path is the root's plus the relative part.
      found_.push_back(walked_file(root, real_root, path, language));
      announce_last();
    }
  }
}

// Reads the directory at `path` and, unless a filter excludes it or it cannot be read, walks it
// next; a failure other than a missing permission ends the walk (clears `frames`).
void Discoverer::enter(std::vector<Frame>& frames, const fs::path& path, const fs::path& root,
                       const fs::path& real_root) {
  std::error_code failure;
  bool searchable = false;
  Frame below = read(path, root, real_root, searchable, failure);
  if (excluded(path, true)) return;
  // Gone or replaced since its parent was listed: nothing left to check.
  if (failure == std::errc::no_such_file_or_directory || failure == std::errc::not_a_directory) return;
  if (failure == std::errc::permission_denied || (!failure && !searchable)) {
    result_.errors.push_back(path.string() + ": cannot be listed (permission denied); skipped");
  } else if (failure && failure != std::errc::permission_denied) {
    result_.errors.push_back(path.string() + ": " + failure.message());
    frames.clear();
  } else if (!failure) {
    frames.push_back(std::move(below));
  }
}

void Discoverer::finish() {
  // Already in order when one root was walked: a directory's entries are sorted by name, which
  // for each entry's subtree is path_order's order too ('/' sorts first).
  auto in_order = [](const Found& a, const Found& b) { return path_order(a.file.path, b.file.path); };
  if (!std::is_sorted(found_.begin(), found_.end(), in_order)) std::sort(found_.begin(), found_.end(), in_order);
  std::unordered_set<std::string_view> seen;  // views of `found_`'s real paths
  seen.reserve(found_.size());
  result_.files.reserve(found_.size());  // the list lives for the whole run: no spare capacity
  for (Found& entry : found_) {
    if (seen.insert(entry.real).second) result_.files.push_back(std::move(entry.file));
  }
  if (!unknown_.empty()) add_unknown_note();
}

// One note, however many files a hook or a shell glob passed.
void Discoverer::add_unknown_note() {
  std::string listed;
  for (size_t i = 0; i < unknown_.size() && i < 3; ++i) listed += (i == 0 ? "" : ", ") + unknown_[i];
  if (unknown_.size() > 3) listed += ", ...";
  result_.notes.push_back(std::to_string(unknown_.size()) + (unknown_.size() == 1 ? " file" : " files") +
                          " named on the command line " + (unknown_.size() == 1 ? "is" : "are") +
                          " not Python, C/C++/CUDA, a notebook or a build file (" + listed +
                          "); skipped (the [extension] configuration table adds file endings)");
}

}  // namespace

Discovery discover(const std::vector<std::string>& paths, const buildfiles::ExtraExtensions& build_extensions,
                   const DiscoveryFilter* filter) {
  Discovery result;
  Discoverer discoverer(build_extensions, filter, result);
  for (const std::string& argument : paths) discoverer.add(argument);
  discoverer.finish();
  return result;
}

}  // namespace torchmigrate::engine
