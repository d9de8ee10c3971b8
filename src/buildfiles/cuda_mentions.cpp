// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/cuda_mentions.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace torchmigrate::buildfiles {
namespace {

bool is_digit(std::string_view text, size_t at) {
  return at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]));
}

// The word of `line` around [at, ...): up to a blank, quote or separator, for the evidence.
std::string word_at(std::string_view line, size_t at) {
  size_t end = line.find_first_of(" \t\"'`;,)]}", at);
  return std::string(line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
}

// "`word` in where", built by appending (GCC 12 warns falsely on `"`" + std::string`).
std::string evidence_of(std::string_view word, std::string_view where) {
  std::string out = "`";
  out.append(word).append("` in ").append(where);
  return out;
}

// After `download.pytorch.org/whl/` (and an optional `nightly/` or `test/`): the build's name.
void wheel_index(std::string_view line, CudaMentions& out, std::string_view where) {
  static constexpr std::string_view kIndex = "download.pytorch.org/whl/";
  for (size_t at = line.find(kIndex); at != std::string_view::npos; at = line.find(kIndex, at + 1)) {
    size_t build = at + kIndex.size();
    for (std::string_view channel : {"nightly/", "test/"}) {
      if (line.substr(build).starts_with(channel)) build += channel.size();
    }
    std::string_view rest = line.substr(build);
    std::string evidence = evidence_of(word_at(line, at), where);
    bool build_named =
        (rest.starts_with("cu") && is_digit(rest, 2)) || rest.starts_with("cpu") || rest.starts_with("rocm");
    if (!build_named) continue;
    std::string name(rest.substr(0, rest.find_first_of(" \t\"'`;,)]}/")));
    if (out.index_of({name}).empty()) out.indexes.emplace_back(name, evidence);
    std::string& kind = rest.starts_with("cu13") && is_digit(rest, 4) ? out.cuda13 : out.other_index;
    if (kind.empty()) kind = evidence;
  }
}

// `KEY<sep>13` with `=`, `==`, `:` or blanks and an optional quote between: a CUDA 13 setting.
// Returns where its value starts, or npos.
size_t value_13_after(std::string_view line, size_t after) {
  size_t at = line.find_first_not_of(" \t=:\"'", after);
  if (at == std::string_view::npos || at == after) return std::string_view::npos;
  return line.substr(at).starts_with("13") && !is_digit(line, at + 2) ? at : std::string_view::npos;
}

void cuda13_settings(std::string_view line, CudaMentions& out, std::string_view where) {
  static constexpr std::array<std::string_view, 3> kKeys = {"cuda-toolkit", "cuda-version", "CUDA_VERSION"};
  static constexpr std::string_view kImage = "nvidia/cuda:13.";
  size_t image = line.find(kImage);
  if (image != std::string_view::npos) {
    out.cuda13 = evidence_of(word_at(line, image), where);
    return;
  }
  for (std::string_view key : kKeys) {
    for (size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
      bool starts_word = at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
      size_t value = value_13_after(line, at + key.size());
      if (!starts_word || value == std::string_view::npos) continue;
      std::string setting(line.substr(at, value - at));
      std::erase_if(setting, [](char c) { return c == '"' || c == '\''; });
      setting += word_at(line, value);
      out.cuda13 = evidence_of(setting, where);
      return;
    }
  }
}

// `TORCH_CUDA_ARCH_LIST=V`, `TORCH_CUDA_ARCH_LIST: "V"`, `ENV TORCH_CUDA_ARCH_LIST "V"`,
// `environ["TORCH_CUDA_ARCH_LIST"] = "V"`: the literal value V, or "" when none follows.
std::string_view arch_list_value(std::string_view line, size_t after) {
  std::string_view rest = line.substr(after);
  if (rest.starts_with("\"]") || rest.starts_with("']")) rest.remove_prefix(2);
  auto skip_blanks = [&rest] {
    size_t at = rest.find_first_not_of(" \t");
    rest.remove_prefix(at == std::string_view::npos ? rest.size() : at);
  };
  skip_blanks();
  char separator = rest.empty() ? '\0' : rest.front();
  if (separator == '=' || separator == ':') {
    rest.remove_prefix(1);
  } else if (!line.substr(line.find_first_not_of(" \t")).starts_with("ENV ")) {
    return {};  // a mention (`echo $TORCH_CUDA_ARCH_LIST`), not a setting
  }
  skip_blanks();
  if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
    size_t close = rest.find(rest.front(), 1);
    return close == std::string_view::npos ? std::string_view() : rest.substr(1, close - 1);
  }
  // Unquoted: one word after `=` (`NAME=7.0;8.0 cmd`); the rest of the line after `:` or a blank
  // (`NAME: 7.0 8.0`, `ENV NAME 7.0 8.0`).
  size_t end = rest.find_first_of(separator == '=' ? " \t#&|" : "#&|");
  return rest.substr(0, end == std::string_view::npos ? rest.size() : end);
}

void arch_entries(std::string_view line, CudaMentions& out, std::string_view where) {
  static constexpr std::string_view kName = "TORCH_CUDA_ARCH_LIST";
  for (size_t at = line.find(kName); at != std::string_view::npos; at = line.find(kName, at + 1)) {
    std::string_view value = arch_list_value(line, at + kName.size());
    std::string entry;
    for (char c : std::string(value) + ";") {
      if (c != ';' && c != ' ' && c != '\t' && c != ',') {
        entry.push_back(c);
        continue;
      }
      bool known = std::any_of(out.arch_entries.begin(), out.arch_entries.end(),
                               [&entry](const auto& seen) { return seen.first == entry; });
      if (!entry.empty() && !known) {
        std::string variable = "`TORCH_CUDA_ARCH_LIST` in ";
        out.arch_entries.emplace_back(entry, evidence_of(entry, variable.append(where)));
      }
      entry.clear();
    }
  }
}

}  // namespace

std::string CudaMentions::arch_entry_of(const std::vector<std::string>& entries) const {
  for (const auto& [entry, evidence] : arch_entries) {
    std::string_view arch = entry;
    if (arch.ends_with("+PTX") && std::find(entries.begin(), entries.end(), arch) == entries.end()) {
      arch.remove_suffix(4);
    }
    if (std::find(entries.begin(), entries.end(), arch) != entries.end()) return evidence;
  }
  return "";
}

std::string CudaMentions::index_of(const std::vector<std::string>& builds) const {
  for (const auto& [build, evidence] : indexes) {
    if (std::find(builds.begin(), builds.end(), build) != builds.end()) return evidence;
  }
  return "";
}

void find_cuda_mentions(std::string_view text, std::string_view where, CudaMentions& out) {
  if (text.find("13") == std::string_view::npos && text.find("download.pytorch.org") == std::string_view::npos &&
      text.find("TORCH_CUDA_ARCH_LIST") == std::string_view::npos) {
    return;
  }
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    wheel_index(line, out, where);
    if (out.cuda13.empty()) cuda13_settings(line, out, where);
    arch_entries(line, out, where);
  }
}

}  // namespace torchmigrate::buildfiles
