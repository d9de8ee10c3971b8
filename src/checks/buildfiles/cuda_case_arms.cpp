// SPDX-License-Identifier: MIT
// The shell half of cuda_version_branches.hpp: `case "$CU_VERSION" in cu113) ...;; esac`.
#include <cctype>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "torchmigrate/checks/cuda_version_branches.hpp"

namespace torchmigrate::checks {
namespace {

std::string_view trimmed(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

bool older(CudaVersion a, CudaVersion b) { return a.major < b.major || (a.major == b.major && a.minor < b.minor); }

// The CUDA releases an arm's pattern names, one per alternative; nullopt when some alternative
// names none or has a wildcard (it may match any toolkit).
std::optional<std::vector<CudaVersion>> pattern_releases(std::string_view pattern) {
  static const std::regex wheel_tag(R"(^cu(\d{1,2})(\d)$)", std::regex::icase);  // cu92, cu113, cu128
  static const std::regex dotted(R"(^(?:cuda[-_]?)?(\d{1,2})\.(\d)(?:\.\d+)?$)", std::regex::icase);  // 11.8, cuda-12.6
  std::vector<CudaVersion> releases;
  std::string text(pattern);
  if (!text.empty() && text.front() == '(') text.erase(0, 1);
  size_t start = 0;
  for (;;) {
    size_t bar = text.find('|', start);
    std::string alternative(
        trimmed(std::string_view(text).substr(start, bar == std::string::npos ? bar : bar - start)));
    if (alternative.size() >= 2 && (alternative.front() == '"' || alternative.front() == '\'')) {
      alternative = alternative.substr(1, alternative.size() - 2);
    }
    std::smatch match;
    if (std::regex_match(alternative, match, wheel_tag) || std::regex_match(alternative, match, dotted)) {
      releases.push_back({std::stoi(match[1]), std::stoi(match[2])});
    } else {
      return std::nullopt;
    }
    if (bar == std::string::npos) return releases;
    start = bar + 1;
  }
}

// The pattern before the `)` of `pattern)` or `pattern) command`, when `line` starts a case arm:
// words, releases, quotes, `|` and `*` only (not `f() {`, not `x=$(cmd)`).
std::optional<std::string_view> arm_head(std::string_view line) {
  size_t paren = line.find(')');
  if (paren == std::string_view::npos || paren == 0) return std::nullopt;
  std::string_view pattern = line.substr(0, paren);
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    bool allowed = std::isalnum(static_cast<unsigned char>(c)) ||
                   std::string_view("._-|*\"' ").find(c) != std::string_view::npos || (c == '(' && i == 0);
    if (!allowed) return std::nullopt;
  }
  return trimmed(pattern);
}

// The pattern of the `case` arm whose body holds the line that starts at `line_start`: read
// upwards to the arm's `pattern)` line; a `;;`, `case` or `esac` first means no arm.
std::optional<std::string_view> arm_pattern(std::string_view shell, size_t line_start, std::string_view before) {
  if (std::optional<std::string_view> head = arm_head(trimmed(before))) return head;
  while (line_start > 0) {
    size_t end = line_start - 1;  // the newline that ends the line above
    size_t begin = end == 0 ? std::string_view::npos : shell.rfind('\n', end - 1);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    std::string_view line = trimmed(shell.substr(begin, end - begin));
    line_start = begin;
    if (line.empty() || line.front() == '#') continue;
    if (line.ends_with(";;") || line.starts_with("case ") || line == "esac" || line.starts_with("esac ")) {
      return std::nullopt;
    }
    if (std::optional<std::string_view> head = arm_head(line)) return head;
  }
  return std::nullopt;
}

}  // namespace

bool in_case_arm_below_cuda(std::string_view shell, uint32_t offset, CudaVersion from) {
  if (offset > shell.size()) return false;
  size_t line_start = shell.rfind('\n', offset == 0 ? 0 : offset - 1);
  line_start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
  std::optional<std::string_view> pattern =
      arm_pattern(shell, line_start, shell.substr(line_start, offset - line_start));
  if (!pattern) return false;
  std::optional<std::vector<CudaVersion>> releases = pattern_releases(*pattern);
  if (!releases || releases->empty()) return false;
  for (CudaVersion release : *releases) {
    if (!older(release, from)) return false;
  }
  return true;
}

}  // namespace torchmigrate::checks
