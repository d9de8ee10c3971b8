// SPDX-License-Identifier: MIT
// Which findings of an editor's previous lint (lint_memo.hpp) still hold after an edit: those of
// the top-level statements the edit left alone, when it edited, added or removed at most one
// statement, that one no guard (an if, try or while whose branches or early exit may guard what
// follows), no other statement holds a syntax error, and every module-level name still means
// what it did.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/lint_memo.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {

struct StatementReuse {
  size_t changed = 0;                // the statement to check again; statements.size(): none
  std::vector<Diagnostic> findings;  // of the other statements, moved to the new text
  std::vector<TextRange> comments;   // likewise
};

// The module's top-level statements (comments included), in order.
std::vector<python::Node> top_level_statements(const python::SyntaxTree& tree);
// What every module-level name means, as text: equal before and after an edit when every name
// that a statement outside the edit uses resolves as before.
std::string module_names(const python::SemanticModel& model, const std::vector<python::Node>& statements,
                         const std::vector<TextRange>& ranges);
bool is_guard_statement(python::Node statement);
// What `memo`, made by the front numbered `front`, gives the text whose top-level statements are
// `statements` (at `ranges`); nullopt when it must be linted whole. module_names is compared by
// the caller, which builds the model focused on the changed statement.
std::optional<StatementReuse> reusable(const LintMemo& memo, uint64_t front,
                                       const std::vector<python::Node>& statements,
                                       const std::vector<TextRange>& ranges);

}  // namespace torchmigrate::engine
