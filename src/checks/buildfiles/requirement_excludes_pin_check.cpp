// SPDX-License-Identifier: MIT
// Family `requirement-excludes-pin`: a requirement on a package that torch pins exactly, whose
// specifier excludes the version torch pins from a given release, in a project that runs that
// release (its pinned maximum or its target reaches it). Unsafe fix: drop the specifier and let torch pin it.
// With `unneeded_with_index`: a requirement on a package that torch's wheels from a
// download.pytorch.org index no longer depend on from a given release (`pytorch-triton`), beside a
// torch requirement in the same file, in a project that installs torch from such an index and runs
// that release. Unsafe fix: drop the requirement.
#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/requirement_deletion.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

// A package torch from a wheel index stopped depending on; reported with its own message and severity.
struct Unneeded {
  std::string package;  // normalised
  TorchVersion torch_from;
  engine::RuleSpec rule;  // the rule with this finding's message and severity
};

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
    if (params.has("unneeded_with_index")) {
      for (const Params& entry : params.objects("unneeded_with_index")) {
        Unneeded unneeded{buildfiles::normalize_name(entry.string("package")),
                          TorchVersion::parse(entry.string("torch_from")), rule};
        unneeded.rule.message = entry.string("message");
        unneeded.rule.severity = static_cast<Severity>(entry.choice("severity", {"error", "warning", "info"}));
        entry.finish();
        unneeded_.push_back(std::move(unneeded));
      }
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    if (unneeded_.empty()) return {};
    return {engine::facts::cuda_mentions};
  }

  void check(engine::FileCheckContext& context) override {
    check_pin(context);
    for (const Unneeded& unneeded : unneeded_) check_unneeded(context, unneeded);
  }

 private:
  void check_pin(engine::FileCheckContext& context) const {
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

  void check_unneeded(engine::FileCheckContext& context, const Unneeded& unneeded) const {
    const engine::Settings& settings = context.settings();
    if (!settings.torch_range_known || settings.newest_torch() < unneeded.torch_from) return;
    const buildfiles::BuildFile& file = context.build_file();
    std::vector<buildfiles::Requirement> found = buildfiles::find_requirements(file, unneeded.package);
    if (found.empty() || buildfiles::find_requirements(file, "torch").empty()) return;
    std::string index = wheel_index(context);
    if (index.empty()) return;
    for (const buildfiles::Requirement& requirement : found) {
      std::string written(context.file().slice(requirement.range));
      Diagnostic& diagnostic =
          context.report(unneeded.rule, requirement.range,
                         {{"requirement", written}, {"torch", unneeded.torch_from.str()}, {"index", index}});
      std::optional<Edit> deletion = requirement_deletion(file, requirement);
      if (!deletion) {
        diagnostic.message +=
            "; no fix is offered because it cannot be deleted alone here (it shares its line with "
            "other code, or is the only package its command installs)";
        continue;
      }
      Fix fix = rule_fix(rule(), "Drop the requirement `" + written + "`", {*deletion}, Applicability::Unsafe);
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

  // The first torch wheel index (`download.pytorch.org/whl/cu128`, any build) this file or the
  // project names, with where; "" when none.
  static std::string wheel_index(engine::FileCheckContext& context) {
    buildfiles::CudaMentions mentions;
    buildfiles::find_cuda_mentions(context.file().text(), "this file", mentions);
    if (!mentions.indexes.empty()) return mentions.indexes.front().second;
    const buildfiles::CudaMentions& project = context.settings().project_fact(engine::facts::cuda_mentions);
    return project.indexes.empty() ? "" : project.indexes.front().second;
  }

  std::string package_;
  std::optional<TorchVersion> torch_from_;  // the first torch release that pins `pinned`
  std::string pinned_text_;
  buildfiles::Version pinned_;
  std::vector<Unneeded> unneeded_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_requirement_excludes_pin_check(const engine::RuleSpec& rule) {
  return std::make_unique<RequirementExcludesPinCheck>(rule);
}

}  // namespace torchmigrate::checks
