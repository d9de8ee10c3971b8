// SPDX-License-Identifier: MIT
// When torch raises a class outside the hierarchy of the one it raised before (ValueError where
// it raised RuntimeError), handlers and test expectations of the old class stop catching the
// error. These helpers find, for one raising call, the nearest `except` handler or test assertion
// that catches the old class but not the new one, and write the widened class tuple.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

// torch raises `new_class` where it raised `old_class`; `bases` already catch `new_class`.
struct ClassChange {
  std::string old_class;
  std::string new_class;
  std::set<std::string> bases;  // e.g. Exception, BaseException
};

class Params;

// What the families that widen handlers read from their params: `old_class`, `new_class`,
// `catch_all_classes` (the bases) and `trusted_modules` (see widening_offered).
struct Widening {
  ClassChange change;
  std::vector<std::string> trusted_modules;
};
Widening read_widening(const Params& params);

// A handler or test expectation that catches the old class only.
struct MissedCatch {
  enum class Kind { Handler, Assertion };
  Kind kind = Kind::Handler;
  python::Node site;     // the except_clause, or the pytest.raises/assertRaises call
  python::Node classes;  // the class expression to widen: `RuntimeError`, `(RuntimeError, KeyError)`
};

// `pytest.raises(E, ...)`, `self.assertRaises(E, ...)`, `self.assertRaisesRegex(E, regex, ...)`.
struct TestAssertion {
  python::Node call;
  python::Node classes;
  python::Node callable;                // null in the context-manager form
  std::vector<python::Node> arguments;  // the positional arguments passed to the callable
};

// The class expression an `except` clause names, without `as name`; null for a bare `except:`.
python::Node handler_classes(python::Node except_clause);
// The classes of such an expression one by one: a tuple's elements, or the expression itself.
std::vector<python::Node> class_elements(python::Node classes);

// The call read as a test assertion of a raised exception, or nullopt.
std::optional<TestAssertion> read_test_assertion(const python::SemanticModel& model, python::Node call);

// The handler or `with` assertion nearest to `raising` (a call, or the callable's reference in
// `assertRaises(E, f, ...)`) that catches `old_class` and none of `new_class`, `bases` or a bare
// `except:`. The search stops at the enclosing def or class; a lambda counts only as the
// callable of a test assertion. A try whose handlers catch neither class lets it pass outward.
std::optional<MissedCatch> find_missed_catch(const python::SemanticModel& model, python::Node raising,
                                             const ClassChange& change);

// For an assertion's own classes (the callable form): the finding, or nullopt when they already
// expect the new class.
std::optional<MissedCatch> missed_by_assertion(const python::SemanticModel& model, const TestAssertion& assertion,
                                               const ClassChange& change);

// `RuntimeError` -> `(RuntimeError, ValueError)`; `(RuntimeError, KeyError)` -> `(RuntimeError, KeyError, ValueError)`.
Edit widen_classes(python::Node classes, const std::string& new_class);
// The classes after `widen_classes`, for a fix title.
std::string widened_text(python::Node classes, const std::string& new_class);

// `text` in backticks, for a message.
std::string code_span(std::string_view text);
// `except RuntimeError` or `pytest.raises(RuntimeError, ...)`, in backticks, for a message.
std::string describe_catch(const MissedCatch& missed);
// Where the finding goes: `except <classes>` (without `as name`), or the assertion call.
TextRange catch_range(const MissedCatch& missed);
// The rule's fix that adds `new_class`; display-only for a test assertion, whose expectation is
// the author's statement about the error.
Fix widening_fix(const engine::RuleSpec& rule, const MissedCatch& missed, const std::string& new_class);

// Whether the widening fix is offered: always for a test assertion; for a handler when its try
// body is a single statement every call of which `trusted` accepts, so that widening the handler
// adds no exception source the author did not mean.
bool widening_offered(const MissedCatch& missed, const std::function<bool(python::Node)>& trusted);
// What a finding's message adds when it is not.
inline constexpr const char* kWideningWithheld =
    "; no fix is offered because the `try` body is not a single statement of torch calls";
// True when the call's callee resolves under one of `modules`.
bool calls_under(const python::SemanticModel& model, python::Node call, const std::vector<std::string>& modules);

}  // namespace torchmigrate::checks
