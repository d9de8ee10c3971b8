// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/suppressions.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace torchmigrate::engine {
namespace {

std::vector<std::string> split_codes(const std::string& text) {
  std::vector<std::string> codes;
  std::string current;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '*' || c == '-' || c == '_') {
      current += c;
    } else if (!current.empty()) {
      codes.push_back(current);
      current.clear();
    }
  }
  if (!current.empty()) codes.push_back(current);
  return codes;
}

bool is_own_code(std::string_view code) { return code.size() >= 3 && code.starts_with("TM"); }

bool only_whitespace_before(const SourceFile& file, uint32_t offset) {
  uint32_t start = file.lines().line_start(file.lines().line_of(offset));
  for (uint32_t i = start; i < offset; ++i) {
    if (file.text()[i] != ' ' && file.text()[i] != '\t') return false;
  }
  return true;
}

// Where codes are added to a directive's list: after its last code. npos when it has no list
// that can be extended.
size_t code_list_end(DirectiveStyle style, std::string_view text) {
  switch (style) {
    case DirectiveStyle::Nolint: return text.find(')', text.find('('));
    case DirectiveStyle::Noqa: break;
  }
  static const std::regex list(R"(#\s*noqa\s*:\s*[A-Za-z]+[0-9]+(?:\s*,\s*[A-Za-z]+[0-9]+)*)", std::regex::icase);
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_search(text.begin(), text.end(), match, list)) return std::string_view::npos;
  return static_cast<size_t>(match.position(0) + match.length(0));
}

// `TM9`, `TM90`, `TM901`: an entry no shorter than the file problems' prefix.
bool names_file_problems(std::string_view entry) {
  if (entry.ends_with('*')) entry.remove_suffix(1);
  return entry.size() >= 3;
}

}  // namespace

bool code_matches(std::string_view code, std::string_view entry) {
  if (entry.ends_with('*')) entry.remove_suffix(1);
  return code.starts_with(entry);
}

void Suppressions::parse_comment(const SourceFile& file, const CommentSyntax& syntax, TextRange comment,
                                 bool own_line) {
  // The parser's comment token of a CRLF line ends with the CR, which belongs to the line end:
  // an edit of the directive must keep it.
  while (comment.end > comment.start && file.text()[comment.end - 1] == '\r') --comment.end;
  std::string text(file.slice(comment));
  uint32_t line = file.lines().line_of(comment.start);
  static const std::regex file_level(R"(^#\s*torchmigrate\s*:\s*noqa(?:\s*:\s*([A-Za-z0-9_,\s*-]+))?\s*$)",
                                     std::regex::icase);
  static const std::regex noqa(R"(#\s*noqa(?:\s*:\s*([A-Za-z0-9_,\s*-]*[A-Za-z0-9_*]))?)", std::regex::icase);
  static const std::regex nolint(R"(NOLINT(NEXTLINE|BEGIN|END)?(?:\(([^)]*)\))?)");
  std::smatch match;
  if (syntax.directive == DirectiveStyle::Nolint) {
    if (!std::regex_search(text, match, nolint)) return;
    std::string kind = match[1].str();
    SuppressionDirective directive{line, line, comment, split_codes(match[2].str()), {}, false};
    directive.used.assign(std::max<size_t>(1, directive.codes.size()), false);
    if (kind == "NEXTLINE") {
      directive.first_line = directive.last_line = line + 1;
    } else if (kind == "BEGIN") {
      directive.last_line = UINT32_MAX;  // closed by the matching NOLINTEND
    } else if (kind == "END") {
      for (auto it = directives_.rbegin(); it != directives_.rend(); ++it) {
        if (it->last_line == UINT32_MAX && !it->file_level && it->codes == directive.codes) {
          it->last_line = line;
          break;
        }
      }
      return;
    }
    directives_.push_back(std::move(directive));
    return;
  }
  if (std::regex_search(text, match, file_level) && match.position(0) == 0) {
    SuppressionDirective directive{0, UINT32_MAX, comment, split_codes(match[1].str()), {}, true};
    directive.used.assign(std::max<size_t>(1, directive.codes.size()), false);
    directives_.push_back(std::move(directive));
    return;
  }
  if (!std::regex_search(text, match, noqa)) return;
  SuppressionDirective directive{line, line, comment, split_codes(match[1].str()), {}, false};
  directive.used.assign(std::max<size_t>(1, directive.codes.size()), false);
  // Dockerfiles allow no comment after an instruction, so a directive on its own line there
  // covers the next line.
  if (own_line && syntax.own_line) directive.last_line = line + 1;
  directives_.push_back(std::move(directive));
}

Suppressions Suppressions::parse(const SourceFile& file, const std::vector<TextRange>* comments,
                                 const python::SyntaxTree* tree) {
  Suppressions suppressions;
  const std::string& text = file.text();
  const CommentSyntax syntax = comment_syntax(file);
  if (comments != nullptr) {
    for (TextRange comment : *comments) {
      suppressions.parse_comment(file, syntax, comment, only_whitespace_before(file, comment.start));
    }
    if (tree != nullptr) suppressions.lines_ = NoqaLines::of(file, *tree, *comments);
    return suppressions;
  }
  for (uint32_t line = 0; line < file.lines().line_count(); ++line) {
    TextRange range = file.lines().line_range(line, text);
    std::string_view content = file.slice(range);
    size_t marker = content.find(syntax.line_marker);
    if (marker == std::string_view::npos && !syntax.block_marker.empty()) marker = content.find(syntax.block_marker);
    if (marker == std::string_view::npos) continue;
    uint32_t start = range.start + static_cast<uint32_t>(marker);
    suppressions.parse_comment(file, syntax, {start, range.end}, only_whitespace_before(file, start));
  }
  return suppressions;
}

void Suppressions::apply(const SourceFile& file, std::vector<Diagnostic>& diagnostics) {
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    if (!is_own_code(diagnostic.code)) return false;
    // A file problem (TM900-TM902) only by its code or `TM9`: a bare `# noqa`, or `# noqa: TM`,
    // must not let a file that was not checked pass.
    const bool file_problem = is_internal_code(diagnostic.code);
    uint32_t line = lines_.resolve(file.lines().line_of(diagnostic.range.start));
    bool suppressed = false;
    for (SuppressionDirective& directive : directives_) {
      if (line < directive.first_line || line > directive.last_line) continue;
      if (directive.codes.empty()) {
        if (file_problem) continue;
        directive.used[0] = true;
        suppressed = true;
        continue;
      }
      for (size_t i = 0; i < directive.codes.size(); ++i) {
        if (file_problem && !names_file_problems(directive.codes[i])) continue;
        if (code_matches(diagnostic.code, directive.codes[i])) {
          directive.used[i] = true;
          suppressed = true;
        }
      }
    }
    return suppressed;
  });
}

std::vector<std::pair<const SuppressionDirective*, std::vector<size_t>>> Suppressions::unused() const {
  std::vector<std::pair<const SuppressionDirective*, std::vector<size_t>>> out;
  for (const SuppressionDirective& directive : directives_) {
    std::vector<size_t> unused_codes;
    for (size_t i = 0; i < directive.codes.size(); ++i) {
      if (!directive.used[i] && is_own_code(directive.codes[i])) unused_codes.push_back(i);
    }
    if (!unused_codes.empty()) out.emplace_back(&directive, std::move(unused_codes));
  }
  return out;
}

std::optional<Edit> noqa_edit(const SourceFile& file, const Suppressions& suppressions, uint32_t line,
                              const std::vector<std::string>& codes) {
  std::vector<std::string> wanted = codes;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  if (wanted.empty()) return std::nullopt;
  const CommentSyntax syntax = comment_syntax(file);
  for (const SuppressionDirective& directive : suppressions.directives()) {
    if (directive.file_level || directive.first_line != line) continue;
    if (directive.codes.empty()) return std::nullopt;  // a blanket directive already covers every code
    std::vector<std::string> missing;
    for (const std::string& code : wanted) {
      bool listed = std::any_of(directive.codes.begin(), directive.codes.end(),
                                [&](const std::string& entry) { return code_matches(code, entry); });
      if (!listed) missing.push_back(code);
    }
    if (missing.empty()) return std::nullopt;
    // Extend the list where it ends; whatever the comment says after it stays as written.
    size_t end = code_list_end(syntax.directive, file.slice(directive.comment));
    if (end == std::string_view::npos) return std::nullopt;
    return Edit::insert(directive.comment.start + static_cast<uint32_t>(end),
                        std::string(syntax.code_separator) + syntax.join(missing));
  }
  TextRange range = file.lines().line_range(line, file.text());
  std::string_view content = file.slice(range);
  size_t first = content.find_first_not_of(" \t");
  if (syntax.own_line) {
    // A Dockerfile comment must be a line of its own; the directive there covers the next line.
    std::string indent(content.substr(0, first == std::string_view::npos ? 0 : first));
    return Edit::insert(range.start, indent + syntax.directive_text(wanted) + std::string(file.line_ending()));
  }
  // Trailing blanks go: the comment follows the code at the usual two-space distance.
  size_t last = content.find_last_not_of(" \t");
  uint32_t code_end = range.start + static_cast<uint32_t>(last == std::string_view::npos ? 0 : last + 1);
  std::string separator = last == std::string_view::npos ? "" : "  ";
  return Edit::replace({code_end, range.end}, separator + syntax.directive_text(wanted));
}

}  // namespace torchmigrate::engine
