// SPDX-License-Identifier: MIT
// Family `old-requirement`: a requirement on a package whose specifier admits versions below
// the minimum torch now needs. Error when the project uses the feature that needs it, warning
// otherwise. Unsafe fix: raise the lower bound, keeping upper bounds and exclusions above it.
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

// The project facts `error_when` may name: the finding is an error when the fact holds.
std::optional<engine::ProjectFact<bool>> error_when_fact(std::string_view name) {
  if (name == "calls-onnx-dynamo-export") return engine::facts::onnx_dynamo_export;
  return std::nullopt;
}

class OldRequirementCheck final : public engine::FileCheck {
 public:
  explicit OldRequirementCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    package_ = buildfiles::normalize_name(params.string("package"));
    minimum_text_ = params.string("minimum");
    std::optional<buildfiles::Version> minimum = buildfiles::Version::parse(minimum_text_);
    if (!minimum) throw engine::CatalogError(rule.code + ": check.params: `minimum` is not a PEP 440 version");
    minimum_ = *minimum;
    std::string error_when = params.string("error_when");
    std::optional<engine::ProjectFact<bool>> fact = error_when_fact(error_when);
    if (!fact) throw engine::CatalogError(rule.code + ": check.params: unknown `error_when` fact `" + error_when + "`");
    error_when_fact_ = *fact;
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {error_when_fact_}; }

  void check(engine::FileCheckContext& context) override {
    const buildfiles::BuildFile& file = context.build_file();
    bool escalate = context.settings().project_fact(error_when_fact_);
    for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(file, package_)) {
      // A bare name leaves the choice to the resolver, which picks the newest release.
      if (requirement.specifier.empty()) continue;
      std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(requirement.specifier);
      if (!specifiers || !buildfiles::admits_version_below(*specifiers, minimum_)) continue;
      std::string written(context.file().slice(requirement.range));
      Diagnostic& diagnostic = context.report(
          rule(), requirement.range,
          {{"requirement", written},
           {"minimum", minimum_text_},
           {"usage", escalate ? "this project calls it" : "no call was found in this project"}});
      if (escalate) diagnostic.severity = Severity::Error;
      if (!requirement.fixable) {
        diagnostic.message += "; no fix is offered because the requirement spans lines or escapes";
        continue;
      }
      std::string specifier = new_specifier(*specifiers);
      Fix fix = rule_fix(rule(), "Require `" + requirement.name + specifier + "`", {}, Applicability::Unsafe);
      if (requirement.needs_quoting) {
        // `pip install onnxscript>=0.3.1` would redirect to a file: quote the word.
        uint32_t from = requirement.specifier_range.start - requirement.word_range.start;
        uint32_t to = requirement.specifier_range.end - requirement.word_range.start;
        std::string word(1, '"');
        word.append(requirement.word, 0, from).append(specifier).append(requirement.word, to).push_back('"');
        fix.edits.push_back(Edit::replace(requirement.word_range, word));
      } else {
        fix.edits.push_back(Edit::replace(requirement.specifier_range, specifier));
      }
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

 private:
  // `>=minimum`, plus the clauses that still restrict versions above it (`<2`, `!=0.4.0`).
  std::string new_specifier(const std::vector<buildfiles::Specifier>& specifiers) const {
    std::string out = ">=" + minimum_text_;
    for (const buildfiles::Specifier& specifier : specifiers) {
      bool upper = specifier.op == "<" || specifier.op == "<=" || specifier.op == "!=";
      if (!upper) continue;
      std::string text = specifier.version;
      if (text.ends_with(".*")) text.resize(text.size() - 2);
      std::optional<buildfiles::Version> version = buildfiles::Version::parse(text);
      if (version && minimum_ < *version) out.append(",").append(specifier.str());
    }
    return out;
  }

  std::string package_;
  std::string minimum_text_;
  buildfiles::Version minimum_;
  engine::ProjectFact<bool> error_when_fact_;  // the project fact that makes a finding an error
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_old_requirement_check(const engine::RuleSpec& rule) {
  return std::make_unique<OldRequirementCheck>(rule);
}

}  // namespace torchmigrate::checks
