// SPDX-License-Identifier: MIT
// Suppression comments written for the user: `--add-noqa` puts one on the line of every current
// finding (`# noqa: CODES`, `// NOLINT(CODES)`), merging into a directive already there, and the
// editor's "suppress" action writes one for a single finding, through the same line_suppression.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"

namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

struct NoqaResult {
  std::string text;                  // the file with the directives added
  size_t added = 0;                  // lines that gained or extended a directive
  std::vector<uint32_t> skipped_lines;  // 1-based: the line still ends inside a string or a continuation
};

NoqaResult add_noqa(const SourceFile& file, const std::vector<Diagnostic>& diagnostics, const Catalog& catalog);

// The one place that decides where a suppression comment can go, for --add-noqa and the editor's
// "suppress" action: the edit that suppresses `codes` found on `line` (0-based), at the end of
// the line whose directive covers it (Suppressions::noqa_line: the last line of a backslash-
// continued line or of a string spanning lines; see noqa_edit), or nullopt when no comment can
// go there (that line still continues or ends inside a string, as in a build file; a file whose
// comment_syntax is not writable: a notebook, a cmd script; a Python file without its tree) or
// the line already suppresses them. Python `suppressions` must be parsed with the tree.
std::optional<Edit> line_suppression(const SourceFile& file, const python::SyntaxTree* tree,
                                     const Suppressions& suppressions, uint32_t line,
                                     const std::vector<std::string>& codes);

// Findings a directive may name: the rules' own codes, not internal notes or TM001 itself.
bool is_suppressible(const Diagnostic& diagnostic, const Catalog& catalog);

// The comments of a Python file, from its tree (a `#` inside a string is none).
std::vector<TextRange> python_comments(const python::SyntaxTree& tree);

}  // namespace torchmigrate::engine
