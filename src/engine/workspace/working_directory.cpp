// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/working_directory.hpp"

#include <algorithm>
#include <optional>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

const std::optional<fs::path>& working_directory() {
  static const std::optional<fs::path> directory = []() -> std::optional<fs::path> {
    std::error_code error;
    fs::path current = fs::current_path(error);
    if (error) return std::nullopt;
    return current;
  }();
  return directory;
}

}  // namespace

fs::path absolute_path(const fs::path& path) {
  const std::optional<fs::path>& here = working_directory();
  std::error_code error;
  if (!here || path.is_absolute()) return fs::absolute(path, error);
  return path.empty() ? *here : *here / path;
}

std::optional<std::string> plain_absolute(std::string_view path) {
  const std::optional<fs::path>& here = working_directory();
  if (!here || here->native().size() < 2 || here->native().back() == '/') return std::nullopt;
  while (path.starts_with("./")) path.remove_prefix(2);
  if (path == ".") return here->native();
  if (path.empty() || path.front() == '/') return std::nullopt;
  for (size_t start = 0; start <= path.size();) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return std::nullopt;
    start = end + 1;
  }
  std::string absolute;
  absolute.reserve(here->native().size() + 1 + path.size());
  absolute.append(here->native()).append(1, '/').append(path);
  return absolute;
}

std::string_view parent_of(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {};
  return slash == 0 ? path.substr(0, 1) : path.substr(0, slash);
}

}  // namespace torchmigrate::engine
