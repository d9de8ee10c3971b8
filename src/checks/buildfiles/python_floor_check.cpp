// SPDX-License-Identifier: MIT
// Family `python-floor`: a torch release raised the Python it requires, and the project still
// admits an older Python while its torch requirement admits that release. One finding a project:
// on its declared Python requirement when that admits the older Python, else on its torch
// requirement, else on its packaging file. Display-only fix.
#include "torchmigrate/buildfiles/file_kind.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/project_anchor.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

bool below(const std::string& version, const buildfiles::Version& floor) {
  std::optional<buildfiles::Version> parsed = buildfiles::Version::parse(version);
  return parsed && *parsed < floor;
}

class PythonFloorCheck final : public engine::FileCheck {
 public:
  explicit PythonFloorCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    floor_text_ = params.string("python_floor");
    std::optional<buildfiles::Version> floor = buildfiles::Version::parse(floor_text_);
    if (!floor) throw engine::CatalogError(rule.code + ": check.params: `python_floor` is not a PEP 440 version");
    floor_ = *floor;
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    return {engine::facts::python_versions, engine::facts::requirement_anchor};
  }

  void check(engine::FileCheckContext& context) override {
    const engine::Settings& settings = context.settings();
    const TorchVersion since = rule().since_release;
    if (!settings.project || (settings.max_torch && *settings.max_torch < since)) return;
    const engine::PythonVersions& python = settings.project_fact(engine::facts::python_versions);
    const engine::RequirementAnchor& anchor = settings.project_fact(engine::facts::requirement_anchor);
    std::optional<std::vector<buildfiles::Specifier>> declared =
        buildfiles::parse_specifiers(python.requirement_specifier);
    bool declared_admits =
        python.requirement.found() && declared && buildfiles::admits_version_below(*declared, floor_);
    bool lowest_below = below(python.lowest, floor_);
    if (!declared_admits && !lowest_below) return;
    if (guarded(python, since)) return;

    engine::ProjectLine at = anchor_of(python, anchor, declared_admits);
    if (!holds_line(context, at)) return;
    std::optional<TextRange> range = at.file == anchor.torch.file && at.line == anchor.torch.line
                                         ? requirement_or_line(context, "torch", at.line)
                                         : trimmed_line(context.file(), at.line);
    if (!range) return;
    const engine::ProjectLine& evidence = lowest_below ? python.lowest_from : python.requirement;
    std::string version = lowest_below ? python.lowest : "below " + floor_text_;
    Diagnostic& diagnostic = context.report(rule(), *range,
                                            {{"python", version},
                                             {"evidence", "`" + evidence.text + "`, " + evidence.where()},
                                             {"floor", floor_text_},
                                             {"torch", since.str()}});
    // Pinned to the release or later: pip on the old Python finds no torch at all.
    if (settings.torch_range_known && !(settings.min_torch < since)) diagnostic.severity = Severity::Error;
    std::string title = "Raise the Python requirement to `>=" + floor_text_ + "`, or add `torch<" + since.str() +
                        "; python_version < \"" + floor_text_ + "\"`";
    diagnostic.fixes.push_back(rule_fix(rule(), title, {}, Applicability::DisplayOnly));
  }

 private:
  // The declared Python requirement, else the torch requirement, else the line that admits the
  // old Python when a build-file check can report there, else the packaging file's first line.
  static engine::ProjectLine anchor_of(const engine::PythonVersions& python, const engine::RequirementAnchor& anchor,
                                       bool declared_admits) {
    if (declared_admits) return python.requirement;
    if (anchor.torch.found()) return anchor.torch;
    if (python.lowest_from.found() &&
        buildfiles::kind_for(std::filesystem::path(python.lowest_from.file)) != buildfiles::FileKind::Unknown) {
      return python.lowest_from;
    }
    return {anchor.packaging_file, 1, {}};
  }

  // `torch<2.9; python_version < "3.10"`: the older Pythons already get an older torch.
  bool guarded(const engine::PythonVersions& python, TorchVersion since) const {
    if (python.guard_python_below.empty()) return false;
    std::optional<buildfiles::Version> bound = buildfiles::Version::parse(python.guard_python_below);
    return bound && !(*bound < floor_) && !admits_release(python.guard_torch_specifier, since.str());
  }

  std::string floor_text_;
  buildfiles::Version floor_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_python_floor_check(const engine::RuleSpec& rule) {
  return std::make_unique<PythonFloorCheck>(rule);
}

}  // namespace torchmigrate::checks
