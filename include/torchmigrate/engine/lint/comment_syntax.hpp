// SPDX-License-Identifier: MIT
// How each kind of file writes comments and suppression directives: the one place that knows it.
// Every front's files are described here (Python and notebook cells, C/C++/CUDA, build files,
// with Dockerfiles and cmd scripts apart); reading directives (Suppressions::parse), writing
// them (noqa_edit, line_suppression, --add-noqa) and the editor's "suppress" action ask
// comment_syntax instead of looking at the file's language themselves.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::engine {

// The grammar of a suppression directive (parsed in suppressions.cpp).
enum class DirectiveStyle {
  Noqa,    // Ruff/flake8: `# noqa`, `# noqa: TM101, TM2`, and the file-level `# torchmigrate: noqa`
  Nolint,  // clang-tidy: `// NOLINT(TM151)`, `// NOLINTNEXTLINE(...)`, `// NOLINTBEGIN(...)`/`// NOLINTEND(...)`
};

struct CommentSyntax {
  // What starts a comment that runs to the end of its line, when a file's lines are scanned for
  // directives: "#" or "//". Files that have no such comment (notebooks, cmd scripts, unknown
  // files) are still scanned for `#`, so a `# noqa` there is honoured, but none is written.
  std::string_view line_marker;
  // Looked for on a line without line_marker: "/*" in C/C++; empty when there is none.
  std::string_view block_marker;
  DirectiveStyle directive = DirectiveStyle::Noqa;
  // Between the codes of a directive written or extended: ", " (noqa) or "," (NOLINT).
  std::string_view code_separator;
  // Python: only the parser tells a comment from a `#` inside a string, so the comments come from
  // the tree, and without the tree no directive is written (the line may end inside a string).
  bool comments_from_tree = false;
  // False where a comment cannot be appended to a line: a notebook's lines are JSON (a comment
  // belongs inside a cell's string), cmd.exe has no `#` comment (text after `set X=...` would
  // become part of the value), and a file of no known kind.
  bool writable = true;
  // Dockerfiles: a comment must be a line of its own, so a directive on its own line covers the
  // next line too, and one is written on the line above the finding, with that line's indent.
  // Decided by the name alone (Dockerfile*, *.dockerfile, *.Dockerfile), for build files and
  // Python files alike.
  bool own_line = false;

  // The codes as a directive lists them: `TM101, TM201` / `TM101,TM201`.
  [[nodiscard]] std::string join(const std::vector<std::string>& codes) const;
  // The directive suppressing `codes`: `# noqa: TM101, TM201` / `// NOLINT(TM101,TM201)`.
  [[nodiscard]] std::string directive_text(const std::vector<std::string>& codes) const;
  // How the editor's "suppress" action names the directive for one code: `# noqa: TM101` /
  // `NOLINT(TM151)`.
  [[nodiscard]] std::string label(std::string_view code) const;

  bool operator==(const CommentSyntax&) const = default;
};

// The comment syntax of a file, from its language and, for build files and the Dockerfile rule,
// its name. Cheap (Suppressions::parse asks for every file it reads): a table row and a look at
// the name; buildfiles::kind_for only for a build file named *.bat or *.cmd.
CommentSyntax comment_syntax(Language language, std::string_view path);
inline CommentSyntax comment_syntax(const SourceFile& file) { return comment_syntax(file.language(), file.path()); }

}  // namespace torchmigrate::engine
