// SPDX-License-Identifier: MIT
// Edits build-file fixes make to requirements: deleting one (checks/requirement_deletion.hpp,
// TM422's `pytorch-triton` fix) and TM421's display-only `--index-url` suggestion.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/checks/requirement_deletion.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"

namespace buildfiles = torchmigrate::buildfiles;
namespace checks = torchmigrate::checks;
namespace engine = torchmigrate::engine;
using buildfiles::FileKind;
using torchmigrate::Applicability;
using torchmigrate::Diagnostic;
using torchmigrate::Edit;
using torchmigrate::SourceFile;

namespace {

std::string applied(std::string text, const Edit& edit) {
  return text.replace(edit.range.start, edit.range.end - edit.range.start, edit.replacement);
}

// The text with the one `pytorch-triton` requirement deleted, or nullopt when it cannot be.
std::optional<std::string> without_pytorch_triton(const std::string& text, FileKind kind) {
  buildfiles::BuildFile file = buildfiles::BuildFile::read(text, kind);
  std::vector<buildfiles::Requirement> found = buildfiles::find_requirements(file, "pytorch-triton");
  REQUIRE(found.size() == 1);
  std::optional<Edit> edit = checks::requirement_deletion(file, found.front());
  if (!edit) return std::nullopt;
  return applied(text, *edit);
}

// TM421's findings in `text`, read as `path`, for a project on torch 2.11.
std::vector<Diagnostic> tm421(const std::string& path, const std::string& text) {
  engine::Settings settings;
  settings.selection.select = {"TM421"};
  settings.unsafe_fixes = true;
  settings.min_torch = torchmigrate::TorchVersion::parse("2.11");
  settings.max_torch.reset();
  settings.target = torchmigrate::TorchVersion::parse("2.11");
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile(path, text, engine::language_for(path)));
}

}  // namespace

TEST_CASE("requirement deletion: whole lines") {
  CHECK(without_pytorch_triton("torch>=2.10\npytorch-triton==3.5.0  # old\ntriton\n", FileKind::Requirements) ==
        "torch>=2.10\ntriton\n");
  CHECK(without_pytorch_triton("deps:\n  - pip:\n    - \"pytorch-triton\"\n    - torch\n",
                               FileKind::CondaEnvironment) == "deps:\n  - pip:\n    - torch\n");
  CHECK(without_pytorch_triton("[project]\ndependencies = [\n  \"torch\",\n  \"pytorch-triton>=3\",\n]\n",
                               FileKind::Toml) == "[project]\ndependencies = [\n  \"torch\",\n]\n");
  // Sharing the line with other code: no deletion.
  CHECK(without_pytorch_triton("[project]\ndependencies = [\"torch\", \"pytorch-triton\"]\n", FileKind::Toml) ==
        std::nullopt);
  CHECK(without_pytorch_triton("pytorch-triton==3.5.0 --hash=sha256:00\n", FileKind::Requirements) == std::nullopt);
}

TEST_CASE("requirement deletion: words of install commands") {
  CHECK(without_pytorch_triton("RUN pip install torch pytorch-triton==3.5.0 numpy\n", FileKind::Dockerfile) ==
        "RUN pip install torch numpy\n");
  CHECK(without_pytorch_triton("pip install -U \"pytorch-triton\" torch && echo done\n", FileKind::Shell) ==
        "pip install -U torch && echo done\n");
  // The only package of its command, `--index-url` and its argument aside.
  CHECK(without_pytorch_triton("pip install pytorch-triton --index-url https://x/simple && pip install torch\n",
                               FileKind::Shell) == std::nullopt);
  CHECK(without_pytorch_triton("RUN pip install pytorch-triton\n", FileKind::Dockerfile) == std::nullopt);
}

TEST_CASE("TM421 suggests a wheel index, with the edit where the file installs torch") {
  const std::string docker = "FROM nvidia/cuda:12.4.1-devel\nRUN pip install \"torch>=2.11\" numpy\n";
  std::vector<Diagnostic> found = tm421("Dockerfile", docker);
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].fixes.size() == 1);
  const torchmigrate::Fix& fix = found[0].fixes[0];
  CHECK(fix.applicability == Applicability::DisplayOnly);
  CHECK(fix.title ==
        "Install torch from the CUDA 12.8 wheel index: add `--index-url https://download.pytorch.org/whl/cu128` to "
        "the `pip install` of torch on line 2");
  REQUIRE(fix.edits.size() == 1);
  CHECK(applied(docker, fix.edits[0]) ==
        "FROM nvidia/cuda:12.4.1-devel\n"
        "RUN pip install \"torch>=2.11\" --index-url https://download.pytorch.org/whl/cu128 numpy\n");

  const std::string requirements = "numpy\ntorch>=2.11\nnvidia-cudnn-cu12\n";
  found = tm421("requirements.txt", requirements);
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].fixes.size() == 1);
  REQUIRE(found[0].fixes[0].edits.size() == 1);
  CHECK(applied(requirements, found[0].fixes[0].edits[0]) ==
        "numpy\n--index-url https://download.pytorch.org/whl/cu128\ntorch>=2.11\nnvidia-cudnn-cu12\n");
}

TEST_CASE("TM421 suggests the cu126 index for GPUs older than Turing, advice only where torch is not installed") {
  const std::string docker = "FROM nvidia/cuda:12.4.1-devel\nENV TORCH_CUDA_ARCH_LIST=\"Pascal;7.5\"\n";
  std::vector<Diagnostic> found = tm421("Dockerfile", docker);
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].fixes.size() == 1);
  CHECK(found[0].fixes[0].title ==
        "Install torch from the CUDA 12.6 wheel index, whose builds keep GPUs older than Turing (`Pascal` in "
        "`TORCH_CUDA_ARCH_LIST` in this file): add `--index-url https://download.pytorch.org/whl/cu126` where the "
        "project installs torch");
  CHECK(found[0].fixes[0].edits.empty());
}
