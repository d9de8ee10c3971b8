// SPDX-License-Identifier: MIT
// Small questions about functions and builtins shared by the bespoke Python checks: which
// def or lambda encloses a node, whether a name is one of its parameters, whether a name is
// the unshadowed builtin.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

// The nearest enclosing `function_definition` or `lambda` (a null node at module level).
python::Node enclosing_function(python::Node node);
// True when `identifier` refers, at its position, to a parameter of `function`.
bool is_parameter_of(const python::SemanticModel& model, python::Node identifier, python::Node function);
// The parameter node at `index` of a def or lambda (a null node when there is none).
python::Node parameter_at(python::Node function, uint32_t index);
// True when `expression` is the builtin `name` (unshadowed `name` or `builtins.name`).
bool is_builtin(const python::SemanticModel& model, python::Node expression, std::string_view name);
// The string naming the attribute in the builtin `getattr(obj, "name")`; a null node for any
// other call, including `getattr(obj, "name", default)`, which never raises.
python::Node getattr_name(const python::SemanticModel& model, python::Node call);
// The expressions after each `@` of a `decorated_definition`, in order.
std::vector<python::Node> decorator_expressions(python::Node decorated_definition);
// `((x))` -> `x`.
python::Node strip_parentheses(python::Node expression);
// The node's source on one line, for a message: comments and continuations dropped, a line
// break or run of spaces between tokens one space, none just inside brackets or before a comma.
std::string single_line(python::Node node);
// False when the call's callee cannot resolve to a qualified name ending in one of `names`
// (last segments, e.g. "export" for "torch.export.export"): `a.b.name(...)` resolves to a name
// ending in `.name`, so its attribute text decides without a look-up. Other callees may.
bool callee_may_end_in(python::Node call, const std::set<std::string, std::less<>>& names);
// Whether `word` occurs in `text` as a whole identifier word (`mesh` in `mesh.x`, not in `meshes`).
bool has_word(std::string_view text, std::string_view word);

}  // namespace torchmigrate::checks
