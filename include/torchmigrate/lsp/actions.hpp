// SPDX-License-Identifier: MIT
// What the editor actions change, in byte offsets: suppression comments (`# noqa: CODE`,
// `// NOLINT(CODE)`), the one edit a fix-all amounts to, and the hover text of a rule.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/lsp/documents.hpp"

namespace torchmigrate::lsp {

struct Suppression {
  Edit edit;
  std::string comment;  // what the line's comment will name, for the action title
};

// Suppresses `diagnostic` on the line where it starts, exactly as `check --add-noqa` would
// (engine::line_suppression): `# noqa: CODE` (Python, build files; in a Dockerfile on its own line
// above) or `// NOLINT(CODE)` (C/C++/CUDA), or CODE added to such a comment already there.
// nullopt when the line already suppresses the code, a comment cannot go there, or for
// internal codes.
std::optional<Suppression> suppression_edit(const Document& document, const Diagnostic& diagnostic,
                                            const engine::Catalog& catalog);

// One edit turning `before` into `after`, touching only the span between their common prefix
// and suffix, with both ends on UTF-8 character boundaries.
Edit minimal_edit(std::string_view before, std::string_view after);

// The rule's documentation for a hover: summary, what and why, the before/after example(s)
// and the fix safety, as Markdown.
std::string rule_hover_markdown(const engine::RuleSpec& rule);
// The same as plain text (code indented, no Markdown marks), for clients that do not declare
// Markdown in `hover.contentFormat`.
std::string rule_hover_text(const engine::RuleSpec& rule);

}  // namespace torchmigrate::lsp
