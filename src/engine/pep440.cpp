// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/pep440.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace torchmigrate::engine {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// MAJOR[.MINOR] from the start of a version (`2.8.0+cu128`, `2.8.*`, `2.8rc1`, `2`).
TorchVersion parse_release(std::string_view version, std::string_view clause) {
  auto fail = [&]() -> TorchVersion {
    throw SpecifierError("`" + std::string(clause) + "` is not a version specifier");
  };
  version = trim(version);
  if (!version.empty() && (version.front() == 'v' || version.front() == 'V')) version.remove_prefix(1);
  TorchVersion result{0, 0};
  const char* begin = version.data();
  const char* end = version.data() + version.size();
  auto [after_major, major_error] = std::from_chars(begin, end, result.major);
  if (major_error != std::errc()) return fail();
  if (after_major == end) return result;
  if (*after_major == '!') return fail();  // epochs are not something torch uses
  if (*after_major != '.') {
    if (std::isalpha(static_cast<unsigned char>(*after_major)) || *after_major == '+') return result;
    return fail();
  }
  const char* minor_begin = after_major + 1;
  if (minor_begin != end && *minor_begin == '*') return result;  // `2.*`
  auto [after_minor, minor_error] = std::from_chars(minor_begin, end, result.minor);
  if (minor_error != std::errc()) return fail();
  // Whatever follows (micro, pre/post/dev release, local label, `.*`) does not change MAJOR.MINOR.
  for (const char* c = after_minor; c != end; ++c) {
    if (!std::isalnum(static_cast<unsigned char>(*c)) && *c != '.' && *c != '*' && *c != '+' && *c != '-' &&
        *c != '_') {
      return fail();
    }
  }
  return result;
}

}  // namespace

std::string normalize_package_name(std::string_view name) {
  std::string normalized;
  bool separator = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      separator = true;
      continue;
    }
    if (separator && !normalized.empty()) normalized += '-';
    separator = false;
    normalized += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return normalized;
}

std::optional<Requirement> parse_requirement(std::string_view text) {
  text = trim(text);
  size_t end = 0;
  while (end < text.size() && is_name_char(text[end])) ++end;
  if (end == 0 || !std::isalnum(static_cast<unsigned char>(text[0]))) return std::nullopt;
  Requirement requirement{normalize_package_name(text.substr(0, end)), {}};
  std::string_view rest = trim(text.substr(end));
  if (rest.starts_with('[')) {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = trim(rest.substr(close + 1));
  }
  if (rest.starts_with('@')) return requirement;  // direct reference: no version to read
  rest = rest.substr(0, rest.find(';'));
  rest = trim(rest);
  if (rest.starts_with('(') && rest.ends_with(')')) rest = trim(rest.substr(1, rest.size() - 2));
  requirement.specifiers = std::string(rest);
  return requirement;
}

std::optional<TorchVersion> lowest_admitted(std::string_view specifiers) {
  static constexpr std::array<std::string_view, 8> kOperators{"===", "~=", "==", "!=", "<=", ">=", "<", ">"};
  std::optional<TorchVersion> lowest;
  while (!trim(specifiers).empty()) {
    size_t comma = specifiers.find(',');
    std::string_view clause = trim(specifiers.substr(0, comma));
    specifiers = comma == std::string_view::npos ? std::string_view() : specifiers.substr(comma + 1);
    auto op = std::find_if(kOperators.begin(), kOperators.end(),
                           [&](std::string_view candidate) { return clause.starts_with(candidate); });
    if (op == kOperators.end()) throw SpecifierError("`" + std::string(clause) + "` is not a version specifier");
    TorchVersion version = parse_release(clause.substr(op->size()), clause);
    if (*op == "!=" || *op == "<" || *op == "<=") continue;  // upper bounds and exclusions
    // Several lower bounds all apply: the highest of them is the one that counts.
    if (!lowest || *lowest < version) lowest = version;
  }
  return lowest;
}

}  // namespace torchmigrate::engine
