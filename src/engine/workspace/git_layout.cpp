// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/git_layout.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "torchmigrate/engine/workspace/file_io.hpp"

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

// Regular files only: a FIFO in a checkout would block the run.
std::optional<std::string> read_text(const fs::path& path) { return read_file(path).text; }

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// A repository directory has HEAD, objects and refs (what git checks before accepting one).
bool is_git_dir(const fs::path& directory) {
  std::error_code error;
  return fs::exists(directory / "HEAD", error) && fs::is_directory(directory / "objects", error) &&
         fs::is_directory(directory / "refs", error);
}

// A config value: quotes removed, escapes resolved, a comment after it dropped.
std::string config_value(std::string_view raw) {
  std::string value;
  bool quoted = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '"') {
      quoted = !quoted;
    } else if (c == '\\' && i + 1 < raw.size()) {
      char next = raw[++i];
      value += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else if (!quoted && (c == '#' || c == ';')) {
      break;
    } else {
      value += c;
    }
  }
  return trim(value);
}

std::optional<bool> config_bool(const std::string& value) {
  std::string v = lower(value);
  if (v.empty() || v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return false;
  return std::nullopt;
}

fs::path home() {
  const char* value = std::getenv("HOME");
  return value != nullptr ? fs::path(value) : fs::path();
}

fs::path xdg_config_home() {
  const char* value = std::getenv("XDG_CONFIG_HOME");
  if (value != nullptr && *value != '\0') return value;
  return home().empty() ? fs::path() : home() / ".config";
}

// `~/` and `~` start a path in the user's home.
fs::path expand_user(const std::string& path) {
  if (path == "~") return home();
  if (path.starts_with("~/")) return home() / path.substr(2);
  return path;
}

// Reads the [core] keys of one configuration file into `settings`, and the files it includes
// with `[include] path = ...` where they stand (`includeIf` conditions are not evaluated).
void read_config(const fs::path& file, GitIgnoreSettings& settings, std::optional<std::string>& excludes_file,
                 int depth = 0) {
  std::optional<std::string> text = read_text(file);
  if (!text || depth > 10) return;  // git stops include cycles as well
  std::istringstream lines(*text);
  std::string line;
  std::string section;
  while (std::getline(lines, line)) {
    std::string stripped = trim(line);
    if (stripped.empty() || stripped.front() == '#' || stripped.front() == ';') continue;
    if (stripped.front() == '[') {
      size_t close = stripped.find(']');
      section = lower(trim(stripped.substr(1, close == std::string::npos ? std::string::npos : close - 1)));
      if (close == std::string::npos) continue;
      stripped = trim(stripped.substr(close + 1));  // `[core] key = value` on one line
      if (stripped.empty()) continue;
    }
    size_t equals = stripped.find('=');
    std::string key = lower(trim(stripped.substr(0, equals)));
    std::string value = equals == std::string::npos ? std::string() : config_value(stripped.substr(equals + 1));
    if (section == "include" && key == "path" && !value.empty()) {
      fs::path included = expand_user(value);
      read_config(included.is_absolute() ? included : file.parent_path() / included, settings, excludes_file,
                  depth + 1);
    } else if (section == "core" && key == "excludesfile") {
      excludes_file = value;
    } else if (section == "core" && key == "ignorecase") {
      if (std::optional<bool> flag = config_bool(equals == std::string::npos ? "true" : value)) {
        settings.ignore_case = *flag;
      }
    }
  }
}

}  // namespace

std::optional<GitLayout> git_layout_at(const fs::path& directory) {
  std::error_code error;
  fs::path dot_git = directory / ".git";
  fs::file_status status = fs::status(dot_git, error);
  GitLayout layout;
  if (fs::is_directory(status)) {
    layout.git_dir = dot_git;
  } else if (fs::is_regular_file(status)) {
    // `gitdir: <path>`, relative to the file's directory when not absolute.
    std::optional<std::string> text = read_text(dot_git);
    if (!text || !text->starts_with("gitdir:")) return std::nullopt;
    fs::path target = trim(std::string_view(*text).substr(7));
    layout.git_dir = (target.is_absolute() ? target : directory / target).lexically_normal();
  } else {
    return std::nullopt;
  }
  layout.common_dir = layout.git_dir;
  if (std::optional<std::string> common = read_text(layout.git_dir / "commondir")) {
    fs::path target = trim(*common);
    layout.common_dir = (target.is_absolute() ? target : layout.git_dir / target).lexically_normal();
  }
  if (!is_git_dir(layout.common_dir) || !fs::exists(layout.git_dir / "HEAD", error)) return std::nullopt;
  return layout;
}

GitIgnoreSettings git_ignore_settings(const GitLayout& layout) {
  GitIgnoreSettings settings;
  std::optional<std::string> excludes_file;
  const char* no_system = std::getenv("GIT_CONFIG_NOSYSTEM");
  if (no_system == nullptr || !config_bool(no_system).value_or(false)) {
    read_config("/etc/gitconfig", settings, excludes_file);
  }
  if (const char* global = std::getenv("GIT_CONFIG_GLOBAL"); global != nullptr) {
    read_config(global, settings, excludes_file);
  } else {
    if (!xdg_config_home().empty()) read_config(xdg_config_home() / "git" / "config", settings, excludes_file);
    if (!home().empty()) read_config(home() / ".gitconfig", settings, excludes_file);
  }
  read_config(layout.common_dir / "config", settings, excludes_file);
  if (excludes_file && !excludes_file->empty()) {
    settings.excludes_file = expand_user(*excludes_file);
  } else if (!xdg_config_home().empty()) {
    settings.excludes_file = xdg_config_home() / "git" / "ignore";
  }
  return settings;
}

}  // namespace torchmigrate::engine
