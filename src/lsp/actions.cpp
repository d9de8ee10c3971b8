// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/actions.hpp"

#include <regex>

#include "torchmigrate/buildfiles/file_kind.hpp"

namespace torchmigrate::lsp {
namespace {

bool is_internal_code(std::string_view code) {
  return code == kIoErrorCode || code == kParseErrorCode || code == kInternalErrorCode;
}

// The innermost node holding the byte at `offset`, walking down with the Node API.
python::Node node_at(python::Node node, uint32_t offset) {
  for (;;) {
    bool descended = false;
    for (uint32_t i = 0; i < node.child_count(); ++i) {
      python::Node child = node.child(i);
      if (child.start() <= offset && offset < child.end()) {
        node = child;
        descended = true;
        break;
      }
    }
    if (!descended) return node;
  }
}

bool inside_string(python::Node node) {
  for (; node; node = node.parent()) {
    if (node.kind() == "string") return true;
  }
  return false;
}

// Where the Python comment of the line starts, or npos (a `#` inside a string is no comment).
size_t python_comment_start(const python::SyntaxTree& tree, std::string_view line, uint32_t line_start) {
  for (size_t hash = line.find('#'); hash != std::string_view::npos; hash = line.find('#', hash + 1)) {
    if (node_at(tree.root(), line_start + static_cast<uint32_t>(hash)).kind() == "comment") return hash;
  }
  return std::string_view::npos;
}

struct ExistingList {
  bool blanket = false;     // a comment that suppresses every code
  bool has_code = false;    // the code is already listed
  size_t insert_at = 0;     // where `, CODE` goes when neither (offset in the line)
  bool found = false;
};

ExistingList find_noqa(std::string_view line, size_t comment_start, std::string_view code) {
  static const std::regex kNoqa(R"(#\s*noqa(:\s*([A-Za-z]+[0-9]+(?:\s*,\s*[A-Za-z]+[0-9]+)*))?)", std::regex::icase);
  ExistingList result;
  std::string comment(line.substr(comment_start));
  std::smatch match;
  if (!std::regex_search(comment, match, kNoqa)) return result;
  result.found = true;
  if (!match[2].matched) {
    result.blanket = true;
    return result;
  }
  static const std::regex kCode("[A-Za-z]+[0-9]+");
  std::string codes = match[2].str();
  for (auto it = std::sregex_iterator(codes.begin(), codes.end(), kCode); it != std::sregex_iterator(); ++it) {
    if (it->str() == code) result.has_code = true;
  }
  result.insert_at = comment_start + static_cast<size_t>(match.position(2) + match.length(2));
  return result;
}

ExistingList find_nolint(std::string_view line, std::string_view code) {
  static const std::regex kNolint(R"(NOLINT(\(([^)]*)\))?(?![A-Z]))");
  ExistingList result;
  std::string text(line);
  std::smatch match;
  if (!std::regex_search(text, match, kNolint)) return result;
  result.found = true;
  if (!match[1].matched) {
    result.blanket = true;
    return result;
  }
  static const std::regex kEntry(R"([^,\s]+)");
  std::string checks = match[2].str();
  for (auto it = std::sregex_iterator(checks.begin(), checks.end(), kEntry); it != std::sregex_iterator(); ++it) {
    if (it->str() == code || it->str() == "*") result.has_code = true;
  }
  result.insert_at = static_cast<size_t>(match.position(2) + match.length(2));
  return result;
}

bool is_dockerfile(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  return name.starts_with("Dockerfile") || name.starts_with("Containerfile") || name.ends_with(".dockerfile");
}

}  // namespace

std::optional<Suppression> suppression_edit(const Document& document, const Diagnostic& diagnostic) {
  if (is_internal_code(diagnostic.code)) return std::nullopt;
  const SourceFile& file = document.file();
  uint32_t line_number = file.lines().line_of(diagnostic.range.start);
  TextRange line_range = file.lines().line_range(line_number, file.text());
  std::string_view line = file.slice(line_range);
  size_t last = line.find_last_not_of(" \t");
  if (last != std::string_view::npos && line[last] == '\\') return std::nullopt;
  const std::string& code = diagnostic.code;

  ExistingList existing;
  std::string append;
  switch (file.language()) {
    case Language::Python: {
      const python::SyntaxTree* tree = document.tree();
      if (tree == nullptr) return std::nullopt;
      if (line_range.end < file.text().size() && inside_string(node_at(tree->root(), line_range.end))) {
        return std::nullopt;
      }
      size_t comment = python_comment_start(*tree, line, line_range.start);
      if (comment != std::string_view::npos) existing = find_noqa(line, comment, code);
      append = "  # noqa: " + code;
      break;
    }
    case Language::Cxx:
      existing = find_nolint(line, code);
      append = " // NOLINT(" + code + ")";
      break;
    case Language::BuildFile: {
      // cmd.exe has no `#` comment: text appended to `set X=...` would become part of the value.
      if (buildfiles::kind_for(file.path()) == buildfiles::FileKind::Batch) return std::nullopt;
      if (is_dockerfile(file.path())) {
        // Only a RUN instruction hands the rest of its line to a shell, where `#` starts a comment.
        size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || line.substr(first, 4) != "RUN ") return std::nullopt;
      }
      size_t comment = line.find('#');
      if (comment != std::string_view::npos) existing = find_noqa(line, comment, code);
      append = "  # noqa: " + code;
      break;
    }
    case Language::Notebook:  // a comment would have to go into a JSON string: not offered
    case Language::Unknown: return std::nullopt;
  }
  if (existing.blanket || existing.has_code) return std::nullopt;
  std::string shown = file.language() == Language::Cxx ? "NOLINT(" + code + ")" : "# noqa: " + code;
  if (existing.found) {
    std::string separator = file.language() == Language::Cxx ? "," : ", ";
    return Suppression{Edit::insert(line_range.start + static_cast<uint32_t>(existing.insert_at), separator + code),
                       shown};
  }
  // Trailing blanks go: the comment follows the code at the usual two-space distance.
  uint32_t end = line_range.start + static_cast<uint32_t>(last == std::string_view::npos ? 0 : last + 1);
  if (last == std::string_view::npos) append = append.substr(append.find_first_not_of(' '));
  return Suppression{Edit::replace({end, line_range.end}, append), shown};
}

Edit minimal_edit(std::string_view before, std::string_view after) {
  size_t prefix = 0;
  size_t limit = std::min(before.size(), after.size());
  while (prefix < limit && before[prefix] == after[prefix]) ++prefix;
  auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  while (prefix > 0 && prefix < before.size() && continuation(before[prefix])) --prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) ++suffix;
  while (suffix > 0 && continuation(before[before.size() - suffix])) --suffix;
  TextRange replaced{static_cast<uint32_t>(prefix), static_cast<uint32_t>(before.size() - suffix)};
  return Edit::replace(replaced, std::string(after.substr(prefix, after.size() - suffix - prefix)));
}

std::string rule_hover_markdown(const engine::RuleSpec& rule) {
  std::string_view fence = rule.language == engine::RuleLanguage::Python ? "python"
                           : rule.language == engine::RuleLanguage::Cxx  ? "cpp"
                                                                         : "";
  auto block = [&](const std::string& code) {
    return "```" + std::string(fence) + "\n" + code + (code.ends_with('\n') ? "" : "\n") + "```\n";
  };
  std::string text = "**" + rule.code + "** `" + rule.name + "`: " + rule.summary + "\n\n";
  text += rule.docs.what + "\n\n" + rule.docs.why + "\n\n";
  text += "Before:\n" + block(rule.docs.before) + "\nAfter:\n" + block(rule.docs.after);
  if (!rule.docs.after_adopt_new.empty()) {
    text += "\nOr, adopting the " + rule.release.to.str() + " behaviour:\n" + block(rule.docs.after_adopt_new);
  }
  if (!rule.docs.fix_safety.empty()) text += "\n**Fix safety:** " + rule.docs.fix_safety + "\n";
  return text;
}

}  // namespace torchmigrate::lsp
