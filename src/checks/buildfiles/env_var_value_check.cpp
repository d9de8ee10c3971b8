// SPDX-License-Identifier: MIT
// Family `env-var-value`: settings of environment variables whose meaning changed with their
// value: a variable no longer read, or read only when it holds one exact value. Each variable
// says which values to report and may carry a fix: another value (`set`), or a second variable
// set beside it (`add`).
#include <algorithm>
#include <cctype>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using buildfiles::FileKind;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// A value the file computes (`$FLAG`, `${{ matrix.x }}`, `%FLAG%`, `$(cmd)`) is not known here.
bool literal(std::string_view value) { return value.find_first_of("$%`{") == std::string_view::npos; }

Applicability parse_applicability(const std::string& text, const std::string& where) {
  if (text == "safe") return Applicability::Safe;
  if (text == "unsafe") return Applicability::Unsafe;
  if (text == "display-only") return Applicability::DisplayOnly;
  throw engine::CatalogError(where + ": applicability is safe, unsafe or display-only");
}

enum class FixAction { Set, Add, Remove };

struct VariableFix {
  FixAction action = FixAction::Set;  // `value` instead; `name=value` beside it; the setting deleted
  std::string name;                   // the variable `add` sets
  std::string value;
  std::vector<std::string> when;  // the values it applies to (lower case); empty: every reported value
  Applicability applicability = Applicability::Safe;
};

struct Variable {
  std::string name;
  std::vector<std::string> values;         // report these (lower case); empty: any value
  std::vector<std::string> except_values;  // report any value but these
  std::string detail;
  bool unless_project_reads = false;  // the project's own Python code reading it makes it the project's
  std::optional<VariableFix> fix;
};

VariableFix read_fix(const Params& entry, const std::string& where) {
  VariableFix fix;
  std::string action = entry.string("action");
  if (action == "add") {
    fix.action = FixAction::Add;
  } else if (action == "remove") {
    fix.action = FixAction::Remove;
  } else if (action != "set") {
    throw engine::CatalogError(where + ": fix action is set, add or remove");
  }
  if (fix.action == FixAction::Add) fix.name = entry.string("name");
  if (fix.action != FixAction::Remove) fix.value = entry.string("value");
  if (entry.has("when")) fix.when = entry.strings("when");
  fix.applicability = parse_applicability(entry.string("applicability"), where);
  entry.finish();
  return fix;
}

class EnvVarValueCheck final : public engine::FileCheck {
 public:
  explicit EnvVarValueCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    for (const Params& entry : params.objects("variables")) {
      Variable variable;
      variable.name = entry.string("name");
      std::string where = rule.code + " variable `" + variable.name + "`";
      if (entry.has("values")) variable.values = entry.strings("values");
      if (entry.has("except_values")) variable.except_values = entry.strings("except_values");
      variable.detail = entry.string("detail");
      variable.unless_project_reads = entry.boolean("unless_project_reads", false);
      if (entry.has("fix")) variable.fix = read_fix(entry.object("fix"), where);
      entry.finish();
      names_.push_back(variable.name);
      if (variable.fix && variable.fix->action == FixAction::Add) names_.push_back(variable.fix->name);
      variables_.push_back(std::move(variable));
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {engine::facts::python_environment_reads}; }

  void check(engine::FileCheckContext& context) override {
    // The variables are read when torch runs: shell, containers, CI, env files, setup.py.
    FileKind kind = context.build_file().kind;
    if (!sets_run_environment(kind) && kind != FileKind::SetupPy) return;
    std::vector<buildfiles::Assignment> assignments = find_assignments(context, names_);
    for (const buildfiles::Assignment& assignment : assignments) {
      auto variable_of = std::find_if(variables_.begin(), variables_.end(),
                                      [&](const Variable& v) { return v.name == assignment.name; });
      if (variable_of == variables_.end()) continue;  // a variable an `add` fix sets
      const Variable& variable = *variable_of;
      if (reported(variable, assignment, context) && !replaced(variable, assignments)) {
        report(variable, assignment, context);
      }
    }
  }

 private:
  // A file that also sets the variable an `add` fix would add has made the change already.
  static bool replaced(const Variable& variable, const std::vector<buildfiles::Assignment>& assignments) {
    if (!variable.fix || variable.fix->action != FixAction::Add) return false;
    return std::any_of(assignments.begin(), assignments.end(),
                       [&](const buildfiles::Assignment& other) { return other.name == variable.fix->name; });
  }

  static bool reported(const Variable& variable, const buildfiles::Assignment& assignment,
                       engine::FileCheckContext& context) {
    if (variable.unless_project_reads) {
      const auto& reads = context.settings().project_fact(engine::facts::python_environment_reads);
      if (std::binary_search(reads.begin(), reads.end(), variable.name)) return false;
    }
    std::string value = lower(assignment.value);
    if (!variable.values.empty()) return contains(variable.values, value);
    if (!variable.except_values.empty()) return literal(value) && !contains(variable.except_values, value);
    return true;
  }

  void report(const Variable& variable, const buildfiles::Assignment& assignment,
              engine::FileCheckContext& context) const {
    std::string setting = assignment.name + "=" + assignment.value;
    Diagnostic& diagnostic =
        context.report(rule(), assignment.name_range,
                       {{"setting", setting}, {"variable", assignment.name}, {"detail", variable.detail}});
    if (!variable.fix) return;
    const VariableFix& wanted = *variable.fix;
    if (!wanted.when.empty() && !contains(wanted.when, lower(assignment.value))) return;
    std::optional<Edit> edit;
    std::string title;
    if (wanted.action == FixAction::Remove) {
      if (assignment.removal) edit = Edit::remove(*assignment.removal);
      title = "Remove the `" + assignment.name + "` setting";
    } else if (wanted.action == FixAction::Add) {
      edit = sibling_assignment(context.file(), context.build_file().kind, assignment, wanted.name, wanted.value);
      title = "Also set `" + wanted.name + "=" + wanted.value + "`";
      if (!edit) diagnostic.message += "; no fix: the setting shares its line with other code";
    } else if (!assignment.value_range.empty()) {
      std::string quote = assignment.value_quoted ? std::string(1, assignment.quote) : std::string();
      edit = Edit::replace(assignment.value_range, quote + wanted.value + quote);
      title = "Set `" + assignment.name + "=" + wanted.value + "`";
    }
    if (!edit) return;
    Fix fix = rule_fix(rule(), title, {std::move(*edit)}, Applicability::Safe);
    fix.applicability = least_safe(fix.applicability, wanted.applicability);
    diagnostic.fixes.push_back(std::move(fix));
  }

  std::vector<std::string> names_;
  std::vector<Variable> variables_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_env_var_value_check(const engine::RuleSpec& rule) {
  return std::make_unique<EnvVarValueCheck>(rule);
}

}  // namespace torchmigrate::checks
