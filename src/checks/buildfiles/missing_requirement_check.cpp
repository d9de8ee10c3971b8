// SPDX-License-Identifier: MIT
// Family `missing-requirement`: the project uses a torch feature that imports a package torch
// does not install, and declares that package nowhere. One finding a project, on its torch
// requirement (else its packaging file); the unsafe fix adds the requirement next to a related
// one (`onnx`) or the torch requirement, where the file's format allows an exact edit.
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/project_anchor.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

// The project facts the params may name.
std::optional<engine::ProjectFact<bool>> declared_fact(std::string_view package) {
  if (package == "onnxscript") return engine::facts::declares_onnxscript;
  return std::nullopt;
}
std::optional<engine::ProjectFact<engine::ProjectLine>> needed_fact(std::string_view name) {
  if (name == "calls-onnx-export-dynamo-path") return engine::facts::onnx_export_dynamo_path;
  return std::nullopt;
}

class MissingRequirementCheck final : public engine::FileCheck {
 public:
  explicit MissingRequirementCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    package_ = buildfiles::normalize_name(params.string("package"));
    requirement_ = params.string("requirement");
    next_to_ = params.strings("next_to");
    std::string needed_by = params.string("needed_by");
    params.finish();
    std::optional<engine::ProjectFact<bool>> declared = declared_fact(package_);
    if (!declared)
      throw engine::CatalogError(rule.code + ": check.params: no project fact tells whether `" + package_ +
                                 "` is declared");
    std::optional<engine::ProjectFact<engine::ProjectLine>> needed = needed_fact(needed_by);
    if (!needed) throw engine::CatalogError(rule.code + ": check.params: unknown `needed_by` fact `" + needed_by + "`");
    declared_ = *declared;
    needed_ = *needed;
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    return {declared_, needed_, engine::facts::requirement_anchor, engine::facts::onnx_dynamo_export};
  }

  void check(engine::FileCheckContext& context) override {
    const engine::Settings& settings = context.settings();
    const TorchVersion since = rule().since_release;
    if (!settings.project || (settings.max_torch && *settings.max_torch < since)) return;
    const engine::ProjectLine& use = settings.project_fact(needed_);
    if (!use.found() || settings.project_fact(declared_)) return;
    const engine::RequirementAnchor& anchor = settings.project_fact(engine::facts::requirement_anchor);
    engine::ProjectLine at = anchor.torch.found() ? anchor.torch : engine::ProjectLine{anchor.packaging_file, 1, {}};
    if (!holds_line(context, at)) return;
    // The fact was read from disk; the text checked (a fix's result, an editor's buffer) may
    // declare the package already.
    if (!buildfiles::find_requirements(context.build_file(), package_).empty()) return;
    std::optional<TextRange> range =
        anchor.torch.found() ? requirement_or_line(context, "torch", at.line) : trimmed_line(context.file(), 1);
    if (!range) return;
    Diagnostic& diagnostic =
        context.report(rule(), *range, {{"package", package_}, {"requirement", requirement_}, {"use", use.where()}});
    // Explicit `dynamo=True`, or a range that starts at the release: the export fails on every
    // supported torch without the package.
    bool always = settings.project_fact(engine::facts::onnx_dynamo_export) ||
                  (settings.torch_range_known && !(settings.min_torch < since));
    if (always) diagnostic.severity = Severity::Error;
    diagnostic.fixes.push_back(fix(context));
  }

 private:
  // The requirement inserted after `next_to`'s (else torch's) in a requirements file or a TOML /
  // setup.py list; advice without an edit elsewhere.
  Fix fix(engine::FileCheckContext& context) const {
    std::string title = "Add `" + requirement_ + "` to the project's requirements";
    const buildfiles::BuildFile& file = context.build_file();
    std::vector<std::string> anchors = next_to_;
    anchors.emplace_back("torch");
    for (const std::string& name : anchors) {
      std::vector<buildfiles::Requirement> found =
          buildfiles::find_requirements(file, buildfiles::normalize_name(name));
      if (found.empty()) continue;
      const buildfiles::Requirement& after = found.front();
      std::optional<Edit> edit = after.fixable ? insertion(context.file(), file.kind, after) : std::nullopt;
      if (!edit) break;
      return rule_fix(rule(), "Add `" + requirement_ + "` after `" + after.name + "`", {*edit}, Applicability::Unsafe);
    }
    Fix advice = rule_fix(rule(), title, {}, Applicability::DisplayOnly);
    advice.applicability = Applicability::DisplayOnly;  // no edit, whatever the catalog's safety
    return advice;
  }

  std::optional<Edit> insertion(const SourceFile& source, buildfiles::FileKind kind,
                                const buildfiles::Requirement& after) const {
    std::string_view text = source.text();
    if (kind == buildfiles::FileKind::Requirements) {
      uint32_t line = source.lines().line_of(after.range.start);
      TextRange whole = source.lines().line_range(line, text);
      std::string ending(source.line_ending());
      if (whole.end == text.size()) return Edit::insert(whole.end, ending + requirement_);
      return Edit::insert(line + 1 < source.lines().line_count() ? source.lines().line_start(line + 1)
                                                                 : static_cast<uint32_t>(text.size()),
                          requirement_ + ending);
    }
    if (kind != buildfiles::FileKind::Toml && kind != buildfiles::FileKind::SetupPy) return std::nullopt;
    if (after.range.start == 0) return std::nullopt;
    char quote = text[after.range.start - 1];
    if (quote != '"' && quote != '\'') return std::nullopt;
    size_t close = text.find(quote, after.range.end);
    if (close == std::string_view::npos || text.find('\n', after.range.end) < close) return std::nullopt;
    std::string item = std::string(", ") + quote + requirement_ + quote;
    return Edit::insert(static_cast<uint32_t>(close + 1), item);
  }

  std::string package_;
  std::string requirement_;
  std::vector<std::string> next_to_;
  engine::ProjectFact<bool> declared_;
  engine::ProjectFact<engine::ProjectLine> needed_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_missing_requirement_check(const engine::RuleSpec& rule) {
  return std::make_unique<MissingRequirementCheck>(rule);
}

}  // namespace torchmigrate::checks
