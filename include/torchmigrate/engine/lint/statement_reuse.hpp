// SPDX-License-Identifier: MIT
// Which findings of an editor's previous lint (lint_memo.hpp) still hold after an edit: those of
// the top-level statements the edit left alone, when none of the statements it edited, added or
// removed is a guard (an if, try or while whose branches or early exit may guard what follows)
// and no other statement holds a syntax error. A statement that spells a module-level name whose
// meaning changed is checked again too, unless it is a guard.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/lint/lint_memo.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {

struct StatementReuse {
  std::vector<size_t> rechecked;     // the statements to check again, in source order
  std::vector<Diagnostic> findings;  // of the other statements, moved to the new text
  std::vector<TextRange> comments;   // likewise
};

// What each module-level name means, by name.
using ModuleNames = std::map<std::string, std::string>;

// The module's top-level statements (comments included), in order.
std::vector<python::Node> top_level_statements(const python::SyntaxTree& tree);
// What each module-level name means, as text: equal before and after an edit when every use of
// the name outside the edit resolves as before.
ModuleNames module_names(const python::SemanticModel& model, const std::vector<python::Node>& statements,
                         const std::vector<TextRange>& ranges);
bool is_guard_statement(python::Node statement);
// What `memo`, made by the front numbered `front`, gives the text whose top-level statements are
// `statements` (at `ranges`); nullopt when it must be linted whole. module_names is compared by
// the caller, which builds the model focused on the edited statements, and which then calls
// `recheck_users`.
std::optional<StatementReuse> reusable(const LintMemo& memo, uint64_t front,
                                       const std::vector<python::Node>& statements,
                                       const std::vector<TextRange>& ranges);
// Adds to `reuse` every statement of `text` that spells a name whose meaning differs between
// `before` and `after`, dropping their kept findings and comments; false when one of them is a
// guard (what it guards may then read differently: lint the whole file).
bool recheck_users(StatementReuse& reuse, const ModuleNames& before, const ModuleNames& after, std::string_view text,
                   const std::vector<python::Node>& statements, const std::vector<TextRange>& ranges);

}  // namespace torchmigrate::engine
