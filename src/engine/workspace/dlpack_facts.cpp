// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/dlpack_facts.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "torchmigrate/cxx/dlpack_origin.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"

namespace torchmigrate::engine {
namespace {

namespace fs = std::filesystem;

// A tree this large is walked only this far: the search runs before the first check that reads it.
constexpr size_t kMaxEntries = 50000;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Whether `word` occurs in `text` as a whole identifier.
bool has_identifier(std::string_view text, std::string_view word, std::string_view followed_by) {
  auto identifier_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    size_t end = at + word.size();
    if (at > 0 && identifier_char(text[at - 1])) continue;
    if (end < text.size() && identifier_char(text[end])) continue;
    size_t next = text.find_first_not_of(" \t", end);
    if (next != std::string_view::npos && text.substr(next).starts_with(followed_by)) return true;
  }
  return false;
}

std::optional<std::string> read_small(const fs::path& path) {
  std::error_code error;
  if (fs::file_size(path, error) > (1u << 20) || error) return std::nullopt;
  return read_file(path).text;
}

std::string relative_to(const fs::path& path, const fs::path& root) {
  std::error_code error;
  fs::path relative = fs::relative(path, root, error);
  return (error || relative.empty() ? path : relative).generic_string();
}

}  // namespace

bool declares_old_dlpack_names(std::string_view header) {
  // The enumerators and the struct (or, in 0.4, its alias) as declared, not as mentioned.
  return has_identifier(header, "kDLGPU", "=") || has_identifier(header, "kDLCPUPinned", "=") ||
         has_identifier(header, "DLContext", ";");
}

bool gitmodules_name_dlpack(std::string_view gitmodules) {
  std::string text = lower(gitmodules);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = std::string_view(text).substr(start, end == std::string::npos ? end : end - start);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos) line.remove_prefix(first);
    bool entry = line.starts_with("[submodule") || line.starts_with("path") || line.starts_with("url");
    if (entry && line.find("dlpack") != std::string_view::npos) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

bool cmake_uses_dlpack(std::string_view cmake) {
  // Lower case, comments and blanks dropped: `find_package( DLPack` reads `find_package(dlpack`.
  std::string text;
  bool comment = false;
  for (char c : cmake) {
    if (c == '\n') comment = false;
    if (c == '#') comment = true;
    if (comment || std::isspace(static_cast<unsigned char>(c))) continue;
    text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (std::string_view call : {"find_package(dlpack", "add_library(dlpack", "fetchcontent_declare(dlpack",
                                "externalproject_add(dlpack"}) {
    if (text.find(call) != std::string::npos) return true;
  }
  for (size_t at = text.find("add_subdirectory("); at != std::string::npos;
       at = text.find("add_subdirectory(", at + 1)) {
    size_t close = text.find(')', at);
    if (text.substr(at, close == std::string::npos ? close : close - at).find("dlpack") != std::string::npos) {
      return true;
    }
  }
  return false;
}

OwnDlpack find_own_dlpack(const fs::path& root, FactInputs* inputs) {
  OwnDlpack facts;
  auto looked_at = [&](const fs::path& path) {
    if (inputs != nullptr) inputs->extra_paths.push_back(path.string());
  };
  looked_at(root);
  looked_at(root / ".gitmodules");
  if (auto modules = read_small(root / ".gitmodules"); modules && gitmodules_name_dlpack(*modules)) {
    facts.ships_own = true;
    facts.evidence = ".gitmodules";
  }
  std::error_code error;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
  size_t seen = 0;
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (++seen > kMaxEntries) break;
    const fs::path& path = it->path();
    std::string name = path.filename().string();
    if (it->is_directory(error)) {
      // Discovery's skip list: version control, build output, environments (a virtual
      // environment's torch has its own `ATen/dlpack.h`, a cupy or tvm wheel a dlpack.h).
      if (is_default_excluded(name)) {
        it.disable_recursion_pending();
      } else {
        looked_at(path);  // a file added to it changes its stamp
      }
      continue;
    }
    std::string generic = path.generic_string();
    if (name == "dlpack.h" && !cxx::is_torch_dlpack_header(generic) &&
        generic.find("/torch/include/") == std::string::npos) {
      looked_at(path);
      auto header = read_small(path);
      if (!header) continue;
      bool old = declares_old_dlpack_names(*header);
      if (!facts.ships_own || (old && !facts.declares_old_names)) facts.evidence = relative_to(path, root);
      facts.ships_own = true;
      facts.declares_old_names = facts.declares_old_names || old;
      if (old) break;  // the strongest evidence there is
    } else if (!facts.ships_own && (name == "CMakeLists.txt" || path.extension() == ".cmake")) {
      looked_at(path);
      auto cmake = read_small(path);
      if (cmake && lower(*cmake).find("dlpack") != std::string::npos && cmake_uses_dlpack(*cmake)) {
        facts.ships_own = true;
        facts.evidence = relative_to(path, root);
      }
    }
  }
  return facts;
}

}  // namespace torchmigrate::engine
