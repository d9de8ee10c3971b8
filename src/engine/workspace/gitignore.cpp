// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/gitignore.hpp"

#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/git_layout.hpp"
#include "torchmigrate/engine/workspace/working_directory.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

GitIgnore::GitIgnore(DirectoryListings* listings) : listings_(listings != nullptr ? *listings : own_listings_) {}
GitIgnore::~GitIgnore() = default;

namespace {

// A missing file, or one that is no regular file (a FIFO would block the run), has no patterns.
IgnorePatterns read_patterns(const fs::path& file) {
  ReadResult read = read_file(file);
  return read.text ? IgnorePatterns(*read.text) : IgnorePatterns();
}

// Absolute, normal and without a trailing separator.
std::string normal_absolute(const fs::path& path) {
  if (std::optional<std::string> plain = plain_absolute(path.native())) return std::move(*plain);
  fs::path absolute = absolute_path(path).lexically_normal();
  if (!absolute.has_filename() && absolute.has_relative_path()) absolute = absolute.parent_path();
  return absolute.native();
}

}  // namespace

const GitIgnore::Directory& GitIgnore::directory(const std::string& absolute) {
  if (auto it = directories_.find(absolute); it != directories_.end()) return it->second;
  Directory entry;
  // The top of a work tree starts its own rules, even inside another work tree (a nested
  // repository is judged by itself).
  std::optional<GitLayout> layout = listings_.has(absolute, ".git") ? git_layout_at(absolute) : std::nullopt;
  if (layout) {
    auto repository = std::make_unique<Repository>();
    repository->workdir = absolute;
    GitIgnoreSettings settings = git_ignore_settings(*layout);
    repository->ignore_case = settings.ignore_case;
    repository->info_exclude = read_patterns(layout->common_dir / "info" / "exclude");
    if (settings.excludes_file) {
      fs::path file =
          settings.excludes_file->is_absolute() ? *settings.excludes_file : absolute / *settings.excludes_file;
      repository->excludes_file = read_patterns(file);
    }
    entry.repository = repository.get();
    repositories_.push_back(std::move(repository));
  } else {
    fs::path path(absolute);
    if (path.has_relative_path()) {
      const Directory& parent = directory(path.parent_path().native());
      if (parent.repository != nullptr) {
        entry.repository = parent.repository;
        entry.parent = &parent;
        entry.relative =
            parent.relative.empty() ? path.filename().string() : parent.relative + '/' + path.filename().string();
        // Judged by the rules above it; its own .gitignore speaks only of what lies inside.
        entry.ignored = parent.ignored || matches(parent, entry.relative, true);
      }
    }
  }
  if (entry.repository != nullptr && !entry.ignored && listings_.has_regular_file(absolute, ".gitignore")) {
    entry.gitignore = read_patterns(fs::path(absolute) / ".gitignore");
  }
  return directories_.emplace(absolute, std::move(entry)).first->second;
}

bool GitIgnore::matches(const Directory& directory, const std::string& relative, bool is_directory) {
  const Repository& repository = *directory.repository;
  // The deepest .gitignore first: its last matching line decides.
  for (const Directory* level = &directory; level != nullptr; level = level->parent) {
    if (level->gitignore.empty()) continue;
    std::string_view below = relative;
    if (!level->relative.empty()) below.remove_prefix(level->relative.size() + 1);
    if (std::optional<bool> verdict = level->gitignore.verdict(below, is_directory, repository.ignore_case)) {
      return *verdict;
    }
  }
  for (const IgnorePatterns* file : {&repository.info_exclude, &repository.excludes_file}) {
    if (std::optional<bool> verdict = file->verdict(relative, is_directory, repository.ignore_case)) return *verdict;
  }
  return false;
}

bool GitIgnore::is_ignored(const fs::path& path, bool is_directory) {
  if (is_directory) {
    // A work tree's top is never ignored by its own rules.
    return directory(normal_absolute(path)).ignored;
  }
  // A walk asks about the files of one directory in a row: the directory as the caller spelled it
  // finds the last answer without making the absolute path again. Only a plain name below a
  // parent without a trailing '/' is spelled so that the two give the file's directory and name.
  std::string_view given = path.native();
  std::string_view given_parent = parent_of(given);
  size_t slash = given.rfind('/');
  std::string_view given_name = slash == std::string_view::npos ? given : given.substr(slash + 1);
  bool plain = !given_name.empty() && given_name != "." && given_name != ".." &&
               (given_parent.size() <= 1 || !given_parent.ends_with('/'));
  const Directory* parent = nullptr;
  std::string_view name;
  std::string absolute;
  if (plain && last_parent_ != nullptr && given_parent == last_given_parent_) {
    parent = last_parent_;
    name = given_name;
  } else {
    absolute = normal_absolute(path);
    std::string_view directory_part = parent_of(absolute);
    name = std::string_view(absolute).substr(directory_part.size() + (directory_part.size() > 1));
    parent = &directory(std::string(directory_part));
    last_parent_ = plain ? parent : nullptr;
    last_given_parent_ = given_parent;
  }
  if (parent->repository == nullptr) return false;
  if (parent->ignored) return true;
  relative_.assign(parent->relative);
  if (!relative_.empty()) relative_ += '/';
  relative_.append(name);
  return matches(*parent, relative_, false);
}

}  // namespace torchmigrate::engine
