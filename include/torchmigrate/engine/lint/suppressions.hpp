// SPDX-License-Identifier: MIT
// Inline suppressions: `# noqa`, `# noqa: TM101,TM2` (Ruff/flake8 syntax), a file-level
// `# torchmigrate: noqa[: CODES]`, and clang-tidy's `// NOLINT(TM151)`,
// `// NOLINTNEXTLINE(TM151)`, `// NOLINTBEGIN(...)`/`// NOLINTEND(...)` in C/C++ files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/lint/comment_syntax.hpp"
#include "torchmigrate/engine/lint/noqa_lines.hpp"

namespace torchmigrate::engine {

struct SuppressionDirective {
  uint32_t first_line = 0;  // 0-based lines the directive covers, inclusive
  uint32_t last_line = 0;
  TextRange comment;        // the directive's text, for TM001 and --add-noqa
  std::vector<std::string> codes;  // empty: every code
  std::vector<bool> used;          // per code (or one entry for a blanket directive)
  bool file_level = false;
};

class Suppressions {
 public:
  // `comments` are the byte ranges of the file's comments (from the parser for Python);
  // without them comments are found line by line, with the markers of comment_syntax(file)
  // (C/C++ `//` or `/*`, the others `#`). With a Python file's `tree` (and its comments), a
  // directive covers the lines its line stands for (NoqaLines): a backslash-continued line, a
  // string spanning lines.
  static Suppressions parse(const SourceFile& file, const std::vector<TextRange>* comments = nullptr,
                            const python::SyntaxTree* tree = nullptr);

  // Removes suppressed findings, marking the directives that were used.
  void apply(const SourceFile& file, std::vector<Diagnostic>& diagnostics);
  // Directives (and codes in them) that suppressed nothing, for TM001. Only torchmigrate's own
  // codes are considered: `# noqa: E501` belongs to other tools.
  [[nodiscard]] std::vector<std::pair<const SuppressionDirective*, std::vector<size_t>>> unused() const;
  [[nodiscard]] const std::vector<SuppressionDirective>& directives() const { return directives_; }
  // The line whose directive covers a finding on `line` (0-based).
  [[nodiscard]] uint32_t noqa_line(uint32_t line) const { return lines_.resolve(line); }

 private:
  void parse_comment(const SourceFile& file, const CommentSyntax& syntax, TextRange comment, bool own_line);
  std::vector<SuppressionDirective> directives_;
  NoqaLines lines_;
};

// True when `code` is selected by a directive entry (a code or a prefix such as TM2).
bool code_matches(std::string_view code, std::string_view entry);

// Text that suppresses `codes` on `line` (0-based, the directive's own line: see noqa_line), merged into an existing
// directive there
// (`# noqa: TM101, TM201` / `// NOLINT(TM151)`, spelled as comment_syntax(file) says; in a
// Dockerfile on the line above), as one edit.
std::optional<Edit> noqa_edit(const SourceFile& file, const Suppressions& suppressions, uint32_t line,
                              const std::vector<std::string>& codes);

}  // namespace torchmigrate::engine
