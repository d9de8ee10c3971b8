// SPDX-License-Identifier: MIT
// Family `requirement-excludes-pin`: a requirement on a package that torch pins exactly, whose
// specifier excludes the version torch pins from a given release, in a project that runs that
// release (its pinned maximum or its target reaches it). Unsafe fix: drop the specifier and let torch pin it.
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

class RequirementExcludesPinCheck final : public engine::FileCheck {
 public:
  explicit RequirementExcludesPinCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    package_ = buildfiles::normalize_name(params.string("package"));
    torch_from_ = TorchVersion::parse(params.string("torch_from"));
    pinned_text_ = params.string("pinned");
    std::optional<buildfiles::Version> pinned = buildfiles::Version::parse(pinned_text_);
    if (!pinned) throw engine::CatalogError(rule.code + ": check.params: `pinned` is not a PEP 440 version");
    pinned_ = *pinned;
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const engine::Settings& settings = context.settings();
    if (!settings.torch_range_known || settings.newest_torch() < *torch_from_) return;
    for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(context.build_file(), package_)) {
      if (requirement.specifier.empty()) continue;
      std::optional<std::vector<buildfiles::Specifier>> specifiers =
          buildfiles::parse_specifiers(requirement.specifier);
      if (!specifiers || buildfiles::admits_version(*specifiers, pinned_)) continue;
      std::string written(context.file().slice(requirement.range));
      Diagnostic& diagnostic =
          context.report(rule(), requirement.range,
                         {{"requirement", written}, {"pinned", pinned_text_}, {"torch", torch_from_->str()}});
      if (!requirement.fixable) {
        diagnostic.message += "; no fix is offered because the requirement spans lines or escapes";
        continue;
      }
      Fix fix = rule_fix(rule(), "Drop the version constraint: `" + requirement.name + "`", {}, Applicability::Unsafe);
      fix.edits.push_back(Edit::replace(requirement.specifier_range, ""));
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

 private:
  std::string package_;
  std::optional<TorchVersion> torch_from_;  // the first torch release that pins `pinned`
  std::string pinned_text_;
  buildfiles::Version pinned_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_requirement_excludes_pin_check(const engine::RuleSpec& rule) {
  return std::make_unique<RequirementExcludesPinCheck>(rule);
}

}  // namespace torchmigrate::checks
