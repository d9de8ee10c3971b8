// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/glob.hpp"

#include <sstream>

#include "torchmigrate/engine/workspace/libgit2_api.hpp"

namespace torchmigrate::engine {
namespace {

struct PathspecDeleter {
  void operator()(git_pathspec* pathspec) const { libgit2().git_pathspec_free(pathspec); }
};
using Pathspec = std::unique_ptr<git_pathspec, PathspecDeleter>;

Pathspec compile(const std::vector<std::string>& patterns) {
  if (patterns.empty()) return nullptr;
  std::vector<char*> pointers;
  for (const std::string& pattern : patterns) pointers.push_back(const_cast<char*>(pattern.c_str()));
  git_strarray array{pointers.data(), pointers.size()};
  git_pathspec* pathspec = nullptr;
  if (libgit2().git_pathspec_new(&pathspec, &array) != 0) return nullptr;
  return Pathspec(pathspec);
}

}  // namespace

struct GlobSet::Impl {
  Pathspec full;        // every pattern, against the whole relative path
  Pathspec components;  // patterns without '/', against each component
};

GlobSet::GlobSet(std::vector<std::string> patterns) : patterns_(std::move(patterns)), impl_(std::make_unique<Impl>()) {
  if (patterns_.empty()) return;  // nothing to match: libgit2 need not start
  std::vector<std::string> bare;
  std::vector<std::string> anchored;
  for (std::string pattern : patterns_) {
    if (pattern.starts_with("./")) pattern = pattern.substr(2);
    while (pattern.size() > 1 && pattern.ends_with('/')) pattern.pop_back();
    (pattern.find('/') == std::string::npos ? bare : anchored).push_back(pattern);
  }
  std::vector<std::string> all = anchored;
  all.insert(all.end(), bare.begin(), bare.end());
  impl_->full = compile(all);
  impl_->components = compile(bare);
}

GlobSet::GlobSet() = default;
GlobSet::GlobSet(GlobSet&&) noexcept = default;
GlobSet& GlobSet::operator=(GlobSet&&) noexcept = default;
GlobSet::~GlobSet() = default;

bool GlobSet::matches(const std::string& relative) const {
  if (!impl_) return false;
  if (impl_->full &&
      libgit2().git_pathspec_matches_path(impl_->full.get(), GIT_PATHSPEC_USE_CASE, relative.c_str()) == 1) {
    return true;
  }
  if (!impl_->components) return false;
  std::stringstream parts(relative);
  std::string component;
  while (std::getline(parts, component, '/')) {
    if (!component.empty() &&
        libgit2().git_pathspec_matches_path(impl_->components.get(), GIT_PATHSPEC_USE_CASE, component.c_str()) == 1) {
      return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::engine
