// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/baseline.hpp"

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/run/content_hash.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>
#include <tuple>

namespace torchmigrate::engine {
namespace {

std::string normalised(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out.substr(0, 200);
}

size_t indentation(std::string_view line) { return line.find_first_not_of(" \t"); }

// `Class.method` around `offset`, from indentation: cheap, language-agnostic enough for Python,
// and stable when lines move.
std::string enclosing_scope(const SourceFile& file, uint32_t offset) {
  if (file.is_excerpt()) throw std::logic_error("a baseline needs the whole text of " + file.path());
  if (file.language() != Language::Python) return {};
  uint32_t line = file.lines().line_of(offset);
  std::string_view here = file.slice(file.lines().line_range(line, file.text()));
  size_t limit = indentation(here) == std::string_view::npos ? 0 : indentation(here);
  std::vector<std::string> names;
  for (uint32_t l = line; l-- > 0 && limit > 0;) {
    std::string_view text = file.slice(file.lines().line_range(l, file.text()));
    size_t indent = indentation(text);
    if (indent == std::string_view::npos || indent >= limit) continue;
    std::string_view rest = text.substr(indent);
    if (rest.starts_with("async ")) rest.remove_prefix(6);
    for (std::string_view keyword : {"def ", "class "}) {
      if (rest.starts_with(keyword)) {
        rest.remove_prefix(keyword.size());
        names.emplace_back(rest.substr(0, rest.find_first_of("(:[ ")));
        limit = indent;
      }
    }
  }
  std::string scope;
  for (auto it = names.rbegin(); it != names.rend(); ++it) scope += (scope.empty() ? "" : ".") + *it;
  return scope;
}

}  // namespace

bool baselinable(std::string_view code, const Catalog& catalog) {
  const RuleSpec* rule = catalog.find(code);
  return rule != nullptr && rule->impact != RuleImpact::Breaks;
}

std::string root_relative(const std::string& given, const PathRoots& roots) {
  namespace fs = std::filesystem;
  std::string slashed = given;
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  fs::path path = fs::path(slashed).lexically_normal();
  if (!roots.root.empty()) {
    fs::path absolute = path.is_absolute() || roots.base.empty() ? path : (roots.base / path).lexically_normal();
    if (absolute.is_absolute()) {
      fs::path relative = absolute.lexically_relative(roots.root.lexically_normal());
      if (!relative.empty() && *relative.begin() != "..") path = relative;
    }
  }
  std::string text = path.generic_string();
  return text.empty() || text == "." ? given : text;
}

std::string fingerprint(const SourceFile& file, const Diagnostic& diagnostic, const PathRoots& roots) {
  return content_hash(diagnostic.code + '\0' + root_relative(file.path(), roots) + '\0' +
                      normalised(file.slice(diagnostic.range)) + '\0' + enclosing_scope(file, diagnostic.range.start));
}

Baseline Baseline::load(const std::filesystem::path& path, PathRoots roots, const Catalog& catalog) {
  std::ifstream in(path);
  if (!in) throw BaselineError(path.string() + ": cannot read the baseline file");
  Baseline baseline(catalog);
  baseline.roots_ = std::move(roots);
  try {
    nlohmann::json json = nlohmann::json::parse(in);
    if (json.value("version", 0) != 1 || !json.contains("findings") || !json["findings"].is_array()) {
      throw BaselineError(path.string() + ": not a torchmigrate baseline (version 1); write one with --write-baseline");
    }
    for (const nlohmann::json& finding : json["findings"]) {
      size_t count = finding.value("count", size_t{1});
      std::string key = finding.at("fingerprint").get<std::string>();
      baseline.remaining_[key] += count;
      BaselineEntry& entry = baseline.recorded_[key];
      entry.code = finding.value("code", std::string());
      entry.path = finding.value("path", std::string());
      entry.message = finding.value("message", std::string());
      baseline.size_ += count;
    }
  } catch (const nlohmann::json::exception& error) {
    throw BaselineError(path.string() + ": malformed baseline: " + error.what());
  }
  return baseline;
}

void Baseline::write(const std::filesystem::path& path,
                     const std::vector<std::pair<const SourceFile*, std::vector<Diagnostic>>>& findings,
                     const PathRoots& roots, const Catalog& catalog) {
  std::map<std::string, nlohmann::json> entries;  // sorted by fingerprint: stable diffs
  for (const auto& [file, diagnostics] : findings) {
    for (const Diagnostic& diagnostic : diagnostics) {
      if (!baselinable(diagnostic.code, catalog)) continue;
      std::string key = fingerprint(*file, diagnostic, roots);
      auto [it, inserted] = entries.emplace(key, nlohmann::json{{"fingerprint", key},
                                                                {"code", diagnostic.code},
                                                                {"path", root_relative(file->path(), roots)},
                                                                {"message", diagnostic.message},
                                                                {"count", 0}});
      it->second["count"] = it->second["count"].get<size_t>() + 1;
    }
  }
  nlohmann::json findings_json = nlohmann::json::array();
  for (auto& [key, entry] : entries) findings_json.push_back(std::move(entry));
  nlohmann::json document{{"version", 1}, {"tool", "torchmigrate"}, {"findings", findings_json}};
  std::filesystem::path temp = path;
  temp += ".tmp";
  {
    std::ofstream out(temp);
    if (!out) throw BaselineError(path.string() + ": cannot write the baseline file");
    out << document.dump(2) << '\n';
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) throw BaselineError(path.string() + ": cannot write the baseline file: " + error.message());
}

std::vector<BaselineEntry> Baseline::unmatched() const {
  std::vector<BaselineEntry> entries;
  for (const auto& [key, count] : remaining_) {
    if (count == 0) continue;
    BaselineEntry entry = recorded_.at(key);
    entry.count = count;
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end(), [](const BaselineEntry& a, const BaselineEntry& b) {
    return std::tie(a.path, a.code, a.message) < std::tie(b.path, b.code, b.message);
  });
  return entries;
}

size_t Baseline::filter(const SourceFile& file, std::vector<Diagnostic>& diagnostics) {
  size_t hidden = 0;
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    if (!baselinable(diagnostic.code, *catalog_)) return false;
    auto it = remaining_.find(fingerprint(file, diagnostic, roots_));
    if (it == remaining_.end() || it->second == 0) return false;
    --it->second;
    ++hidden;
    return true;
  });
  return hidden;
}

}  // namespace torchmigrate::engine
