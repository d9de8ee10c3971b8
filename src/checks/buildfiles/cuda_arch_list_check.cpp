// SPDX-License-Identifier: MIT
// Family `cuda-arch-list`: an assignment of an architecture-list variable that names entries
// the new binaries no longer ship; the message names each dropped entry. No fix. With
// `cuda13_projects`, only in a project that builds for CUDA 13 (cuda_mentions.hpp): the message
// then says what shows it (`{evidence}`), and a setup.py branch that CUDA 13 never takes
// (cuda_version_branches.hpp) is not read. With `index_projects`, only in a project that installs
// torch from the wheel index of one of `builds` and that runs `torch_from` (the release whose wheels
// of those builds dropped the entries): its range or its target reaches it. `{evidence}` names the index.
// With `cuda_from`, a shell `case` arm for an older toolkit (`cu113) ...`) is not read.
#include <optional>
#include <set>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/cuda_version_branches.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

class CudaArchListCheck final : public engine::FileCheck {
 public:
  explicit CudaArchListCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    variables_ = params.strings("variables");
    for (const std::string& entry : params.strings("dropped")) dropped_.insert(entry);
    if (params.has("cuda13_projects")) {
      Params cuda13 = params.object("cuda13_projects");
      pypi_cuda13_from_ = TorchVersion::parse(cuda13.string("pypi_default_from"));
      cuda13.finish();
    }
    if (params.has("index_projects")) {
      Params index = params.object("index_projects");
      index_builds_ = index.strings("builds");
      index_torch_from_ = TorchVersion::parse(index.string("torch_from"));
      index.finish();
    }
    if (params.has("cuda_from")) {
      std::string from = params.string("cuda_from");
      size_t dot = from.find('.');
      cuda_from_ = CudaVersion{std::stoi(from.substr(0, dot)), std::stoi(from.substr(dot + 1))};
    }
    if (pypi_cuda13_from_ && index_torch_from_) {
      throw engine::CatalogError(rule.code +
                                 ": check.params: `cuda13_projects` and `index_projects` exclude each other");
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    if (!pypi_cuda13_from_ && !index_torch_from_) return {};
    return {engine::facts::cuda_mentions};
  }

  void check(engine::FileCheckContext& context) override {
    std::string evidence;
    if (pypi_cuda13_from_) {
      evidence = cuda13_evidence(context);
      if (evidence.empty()) return;
    }
    if (index_torch_from_) {
      evidence = index_evidence(context);
      if (evidence.empty()) return;
    }
    bool setup_py = context.build_file().kind == buildfiles::FileKind::SetupPy;
    bool shell = context.build_file().kind == buildfiles::FileKind::Shell;
    for (const buildfiles::Assignment& assignment : find_assignments(context, variables_)) {
      if (pypi_cuda13_from_ && setup_py &&
          unreachable_with_cuda(context.python_tree(), assignment.value_range.start, CudaVersion{13, 0})) {
        continue;
      }
      if (cuda_from_ && shell &&
          in_case_arm_below_cuda(context.file().text(), assignment.value_range.start, *cuda_from_)) {
        continue;  // the list of an older toolkit's build (`case "$CU_VERSION" in cu113) ...`)
      }
      std::string named;
      size_t count = 0;
      for (const std::string& entry : entries(assignment.value)) {
        std::string arch = entry.ends_with("+PTX") && !dropped_.count(entry) ? entry.substr(0, entry.size() - 4) : entry;
        if (!dropped_.count(arch)) continue;
        named += (named.empty() ? "`" : ", `") + entry + "`";
        ++count;
      }
      if (count == 0) continue;
      TextRange range = assignment.value_range.empty() ? assignment.name_range : assignment.value_range;
      context.report(rule(), range, {{"variable", assignment.name}, {"entries", named}, {"evidence", evidence}});
    }
  }

 private:
  // What shows that the project builds for CUDA 13, or "": a mention in this file or elsewhere
  // in the project, else a torch requirement that admits the release whose PyPI wheels are CUDA
  // 13 builds, with no index of other builds named anywhere.
  [[nodiscard]] std::string cuda13_evidence(engine::FileCheckContext& context) const {
    buildfiles::CudaMentions mentions;
    buildfiles::find_cuda_mentions(context.file().text(), "this file", mentions);
    if (!mentions.cuda13.empty()) return mentions.cuda13;
    const buildfiles::CudaMentions& project = context.settings().project_fact(engine::facts::cuda_mentions);
    if (!project.cuda13.empty()) return project.cuda13;
    if (!mentions.other_index.empty() || !project.other_index.empty() || !context.settings().project) return "";
    const engine::Settings& settings = context.settings();
    if (!settings.torch_range_known || (settings.max_torch && *settings.max_torch < *pypi_cuda13_from_)) return "";
    return "the torch requirement admits torch " + pypi_cuda13_from_->str() +
           " or later, whose PyPI wheels are CUDA 13 builds, and no other wheel index is named";
  }

  // The wheel index of one of `index_builds_` that this file or the project names, when the
  // project runs `index_torch_from_` (its pinned maximum or its target reaches it); else "".
  [[nodiscard]] std::string index_evidence(engine::FileCheckContext& context) const {
    const engine::Settings& settings = context.settings();
    if (!settings.torch_range_known || settings.newest_torch() < *index_torch_from_) return "";
    buildfiles::CudaMentions mentions;
    buildfiles::find_cuda_mentions(context.file().text(), "this file", mentions);
    std::string index = mentions.index_of(index_builds_);
    if (index.empty()) index = settings.project_fact(engine::facts::cuda_mentions).index_of(index_builds_);
    return index;
  }

  // TORCH_CUDA_ARCH_LIST separates entries with `;` or spaces (commas are tolerated).
  static std::vector<std::string> entries(const std::string& value) {
    std::vector<std::string> out;
    std::string current;
    for (char c : value + ";") {
      if (c == ';' || c == ' ' || c == '\t' || c == ',' || c == '"' || c == '\'') {
        if (!current.empty()) out.push_back(current);
        current.clear();
      } else {
        current.push_back(c);
      }
    }
    return out;
  }

  std::vector<std::string> variables_;
  std::set<std::string> dropped_;
  std::optional<TorchVersion> pypi_cuda13_from_;  // `cuda13_projects`: the first such release
  std::vector<std::string> index_builds_;         // `index_projects`: the wheel builds
  std::optional<TorchVersion> index_torch_from_;  // `index_projects`: their first release without the entries
  std::optional<CudaVersion> cuda_from_;          // `cuda_from`: the first toolkit whose builds the rule is about
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cuda_arch_list_check(const engine::RuleSpec& rule) {
  return std::make_unique<CudaArchListCheck>(rule);
}

}  // namespace torchmigrate::checks
