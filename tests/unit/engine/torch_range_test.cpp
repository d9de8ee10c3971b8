// SPDX-License-Identifier: MIT
// The supported torch range: PEP 440 lower bounds, each kind of pin file, precedence between
// files and over the default, and malformed files (skipped with a note, never a crash).
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "torchmigrate/engine/workspace/torch_range.hpp"
#include "temp_project.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

// The range a one-line requirements.txt `torch<specifiers>` gives; nullopt for the default.
TorchRange range_of(const std::string& requirement) {
  TempProject project;
  project.write("requirements.txt", requirement + "\n");
  return project_torch_range(project.root());
}
std::optional<TorchPin> pin_of(const std::string& specifiers) {
  TempProject project;
  project.write("requirements.txt", "torch" + specifiers + "\n");
  std::vector<std::string> notes;
  std::vector<TorchPin> pins = read_torch_pins(project.root() / "requirements.txt", notes);
  if (pins.empty()) return std::nullopt;
  return pins.front();
}
std::optional<TorchVersion> lowest(const std::string& specifiers) {
  std::optional<TorchPin> pin = pin_of(specifiers);
  return pin ? pin->lowest : std::nullopt;
}
std::optional<TorchVersion> highest(const std::string& specifiers) {
  std::optional<TorchPin> pin = pin_of(specifiers);
  return pin ? pin->highest : std::nullopt;
}
bool unreadable(const std::string& specifiers) {
  TorchRange range = range_of("torch" + specifiers);
  return range.source == "default" && range.notes.size() == 1 &&
         range.notes[0].find("cannot read the torch requirement") != std::string::npos;
}

bool ends_with(const std::string& text, const std::string& suffix) { return text.ends_with(suffix); }

// The project's range, checked to start at `min` and to name a source ending in `source_end`.
TorchRange expect_range(const TempProject& project, TorchVersion min, const std::string& source_end) {
  TorchRange range = project_torch_range(project.root());
  CHECK(range.min_torch == min);
  CHECK(ends_with(range.source, source_end));
  return range;
}

}  // namespace

TEST_CASE("PEP 440 specifiers give the lowest MAJOR.MINOR they admit") {
  CHECK(lowest(">=2.7,<2.9") == TorchVersion{2, 7});
  CHECK(lowest("<2.9, >=2.6.1") == TorchVersion{2, 6});
  CHECK(lowest("==2.8.*") == TorchVersion{2, 8});
  CHECK(lowest("==2.8.0+cu128") == TorchVersion{2, 8});
  CHECK(lowest("~=2.8.0") == TorchVersion{2, 8});
  CHECK(lowest("~=2.8") == TorchVersion{2, 8});
  CHECK(lowest(">2.7") == TorchVersion{2, 7});
  CHECK(lowest("===2.8.0") == TorchVersion{2, 8});
  CHECK(lowest(">=2.9.0rc1") == TorchVersion{2, 9});
  CHECK(lowest(">=2.6,>=2.8") == TorchVersion{2, 8});  // all clauses apply
  CHECK(lowest(">=2") == TorchVersion{2, 0});
  CHECK_FALSE(lowest("<2.9").has_value());
  CHECK_FALSE(lowest("!=2.7.0").has_value());
  CHECK_FALSE(lowest("").has_value());
  CHECK(unreadable(">=two"));
  CHECK(unreadable(" 2.7"));
  CHECK(unreadable(">=1!2.0"));                   // torch has no epochs
  CHECK_FALSE(lowest(">=2.9,<2.8").has_value());  // admits nothing: no bound to keep working
}

TEST_CASE("PEP 440 specifiers give the highest MAJOR.MINOR they admit") {
  CHECK(highest(">=2.7,<2.9") == TorchVersion{2, 8});
  CHECK(highest("<2.9.1") == TorchVersion{2, 9});
  CHECK(highest("<=2.8.1") == TorchVersion{2, 8});
  CHECK(highest("==2.7.1") == TorchVersion{2, 7});
  CHECK(highest("==2.8.*") == TorchVersion{2, 8});
  CHECK(highest("~=2.8.0") == TorchVersion{2, 8});
  CHECK(highest("<2.9.0a0") == TorchVersion{2, 8});
  CHECK_FALSE(highest("~=2.8").has_value());  // < 3: no bound at this granularity
  CHECK_FALSE(highest(">=2.7").has_value());
  CHECK_FALSE(highest("<3").has_value());
  CHECK(lowest("<2.9") == std::nullopt);
  CHECK(highest("<2.9") == TorchVersion{2, 8});
}

TEST_CASE("requirement names are normalised and extras, markers and URLs are dropped") {
  CHECK(range_of("Torch[cuda] >= 2.6 ; python_version >= '3.9'").min_torch == TorchVersion{2, 6});
  CHECK(range_of("torch (>=2.6)").min_torch == TorchVersion{2, 6});
  CHECK(range_of("torch @ https://download.pytorch.org/whl/torch.whl").source == "default");
  CHECK(range_of("torch_tensorrt>=2.5").source == "default");
  CHECK(range_of("Torch>=2.5").min_torch == TorchVersion{2, 5});
}

TEST_CASE("requirements.txt: the torch line's lower bound and its line number") {
  TempProject project;
  project.write("requirements.txt",
                "# pinned for the serving image\n"
                "numpy>=1.26\n"
                "torchvision>=0.20\n"
                "torch>=2.8,<2.10 --hash=sha256:abc  # cuda build\n");
  TorchRange range = expect_range(project, {2, 8}, "requirements.txt:4");
  CHECK(range.notes.empty());
}

TEST_CASE("requirements continued with a backslash keep the first line's number") {
  TempProject project;
  project.write("requirements-dev.txt", "pytest\ntorch==2.8.* \\\n    --hash=sha256:abc\n");
  TorchRange range = expect_range(project, {2, 8}, "requirements-dev.txt:2");
}

TEST_CASE("requirements files included with -r or -c count, each read once") {
  TempProject project;
  project.write("requirements.txt", "-r requirements/base.txt\n--requirement=requirements/extra.txt\n-r requirements.txt\n");
  project.write("requirements/base.txt", "numpy\n-c ../constraints/torch.txt\n");
  project.write("requirements/extra.txt", "torch>=2.6\n");
  project.write("constraints/torch.txt", "torch >=2.1.0, <2.9\n");
  TorchRange range = expect_range(project, {2, 1}, "torch.txt:1");
  CHECK(range.notes.empty());
}

TEST_CASE("constraints.txt is read like a requirements file") {
  TempProject project;
  project.write("constraints.txt", "torch~=2.8.0\n");
  TorchRange range = expect_range(project, {2, 8}, "constraints.txt:1");
}

TEST_CASE("pyproject.toml: [project] dependencies and optional dependencies") {
  TempProject project;
  project.write("pyproject.toml",
                "[project]\n"
                "name = \"demo\"\n"
                "dependencies = [\n"
                "  \"numpy\",\n"
                "  \"torch>=2.8\",\n"
                "]\n"
                "[project.optional-dependencies]\n"
                "legacy = [\"torch>=2.6,<2.8\"]\n"
                "[tool.other]\n"
                "torch = \">=1.0\"\n");
  TorchRange range = expect_range(project, {2, 6}, "pyproject.toml:8");
}

TEST_CASE("setup.cfg: install_requires and extras_require") {
  TempProject project;
  project.write("setup.cfg",
                "[metadata]\n"
                "name = demo\n"
                "[options]\n"
                "install_requires =\n"
                "    numpy\n"
                "    torch>=2.8\n"
                "[options.extras_require]\n"
                "dev = pytest\n");
  TorchRange range = expect_range(project, {2, 8}, "setup.cfg:6");
}

TEST_CASE("setup.py: install_requires given inline or through a module-level list") {
  TempProject project;
  project.write("setup.py",
                "from setuptools import setup\n"
                "\n"
                "REQUIRES = [\n"
                "    'numpy',\n"
                "    'torch==2.8.0',\n"
                "]\n"
                "setup(name='demo', install_requires=REQUIRES, extras_require={'x': ['einops']})\n");
  TorchRange range = expect_range(project, {2, 8}, "setup.py:5");
}

TEST_CASE("environment.yml: conda and pip spellings, channels ignored") {
  TempProject project;
  project.write("environment.yml",
                "name: demo\n"
                "channels:\n"
                "  - pytorch\n"
                "dependencies:\n"
                "  - python=3.11\n"
                "  - pytorch::pytorch=2.8.0=py3.11_cuda12.8_0\n"
                "  - pip:\n"
                "    - torch>=2.9\n");
  TorchRange range = expect_range(project, {2, 8}, "environment.yml:6");
}

TEST_CASE("conda `pytorch 2.8.*` means 2.8") {
  TempProject project;
  project.write("environment-gpu.yaml", "dependencies:\n- \"pytorch 2.8.*\"\n");
  TorchRange range = expect_range(project, {2, 8}, "environment-gpu.yaml:2");
}

TEST_CASE("precedence: the lowest bound wins, ties go to requirements before pyproject") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.7,<2.9\n");
  project.write("pyproject.toml", "[project]\ndependencies = [\"torch>=2.7\"]\n");
  project.write("setup.py", "setup(install_requires=['torch>=2.8'])\n");
  TorchRange range = expect_range(project, {2, 7}, "requirements.txt:1");

  project.write("requirements.txt", "torch>=2.8\n");
  range = project_torch_range(project.root());
  CHECK(ends_with(range.source, "pyproject.toml:2"));
}

TEST_CASE("an upper bound alone caps the range; no bound at all is the default") {
  TempProject project;
  project.write("requirements.txt", "torch\ntorch<2.9\nnumpy>=2\n");
  TorchRange range = project_torch_range(project.root());
  CHECK(range.min_torch == default_min_torch());
  CHECK(range.max_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "requirements.txt:2"));
  CHECK(range.describe().starts_with("supported torch 2.7-2.8 (from "));
  CHECK(range.describe().ends_with("requirements.txt:2)"));

  project.write("requirements.txt", "torch\nnumpy>=2\n");
  range = project_torch_range(project.root());
  CHECK_FALSE(range.pinned());
  CHECK(range.describe() == "supported torch >= 2.7 (default; no torch pin found)");
}

TEST_CASE("lower bounds say what is supported, upper bounds what is not") {
  TempProject project;
  project.write("setup.py", "from setuptools import setup\nsetup(install_requires=['torch>=2.1'])\n");
  project.write("requirements.txt", "torch>=2.4,<2.10\n");
  TorchRange range = project_torch_range(project.root());
  CHECK(range.min_torch == TorchVersion{2, 1});
  CHECK(range.max_torch == TorchVersion{2, 9});
  CHECK(range.span() == "2.1-2.9");
  CHECK(ends_with(range.source, "requirements.txt:1"));
  CHECK(range.source.find("setup.py:2") != std::string::npos);
  CHECK(range.warnings.empty());
}

TEST_CASE("pins that admit no release together: one warning naming both, the widest range") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.9\n");
  project.write("constraints.txt", "torch==2.7.1\n");
  TorchRange range = project_torch_range(project.root());
  REQUIRE(range.warnings.size() == 1);
  CHECK(range.warnings[0].find("requirements.txt:1 (>= 2.9)") != std::string::npos);
  CHECK(range.warnings[0].find("constraints.txt:1 (2.7)") != std::string::npos);
  CHECK(range.min_torch == TorchVersion{2, 7});
  CHECK_FALSE(range.max_torch.has_value());
}

TEST_CASE("Dockerfiles pin torch with pip, uv and conda; ARG placeholders are left alone") {
  TempProject project;
  project.write("docker/Dockerfile.gpu",
                "FROM python:3.10\n"
                "ARG TORCH=2.3.0\n"
                "RUN pip install \"torch==${TORCH}\" numpy\n"
                "RUN pip install --no-cache-dir torch==1.13.1 torchvision\n");
  TorchRange range = project_torch_range(project.root());
  CHECK(range.min_torch == TorchVersion{1, 13});
  CHECK_FALSE(range.max_torch.has_value());  // an image is one supported release: it bounds nothing above
  CHECK(ends_with(range.source, "Dockerfile.gpu:4"));
  CHECK(range.notes.empty());

  TempProject uv;
  uv.write("Containerfile", "RUN uv pip install --system 'torch>=2.2,<2.6'\n");
  CHECK(project_torch_range(uv.root()).span() == ">= 2.2");
}

TEST_CASE("CI matrices: flow lists, block lists and scalars; non-versions skipped") {
  TempProject project;
  project.write(".github/workflows/tests.yml",
                "jobs:\n"
                "  test:\n"
                "    strategy:\n"
                "      matrix:\n"
                "        torch-version: [\"1.13\", 2.0, '2.2.1', nightly]\n"
                "        include:\n"
                "          - pytorch_version: 2.4\n"
                "    steps:\n"
                "      - run: pip install torch==${{ matrix.torch-version }}\n");
  project.write(".gitlab-ci.yml",
                "variables:\n"
                "  TORCH_VERSIONS:\n"
                "    - \"2.1\"\n"
                "    - \"2.3\"\n");
  TorchRange range = project_torch_range(project.root());
  CHECK(range.min_torch == TorchVersion{1, 13});
  CHECK_FALSE(range.max_torch.has_value());  // what a matrix tests is supported; it bounds nothing
  CHECK(ends_with(range.source, "tests.yml:5"));
  CHECK(range.notes.empty());
}

TEST_CASE("tox deps, conda recipes, and requirement files a Dockerfile installs") {
  TempProject project;
  project.write("tox.ini", "[testenv]\ndeps =\n    pytest\n    torch113: torch==1.13.*\n    torch>=2.0\n");
  TorchRange tox = expect_range(project, {1, 13}, "tox.ini:4");

  TempProject recipe;
  recipe.write("conda/recipe/meta.yaml", "requirements:\n  run:\n    - python\n    - pytorch >=2.2  # [linux]\n");
  CHECK(project_torch_range(recipe.root()).min_torch == TorchVersion{2, 2});

  TempProject referenced;
  referenced.write("Dockerfile", "COPY . /src\nRUN pip install -r packaging/deps/reqs_pip_torch_cu118.txt\n");
  referenced.write("packaging/deps/reqs_pip_torch_cu118.txt", "torch==2.1.2\n");
  TorchRange range = project_torch_range(referenced.root());
  CHECK(range.span() == ">= 2.1");
  CHECK(ends_with(range.source, "reqs_pip_torch_cu118.txt:1"));
}

TEST_CASE("pin_sources lists the files a project's range is read from") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.5\n");
  project.write("Dockerfile", "FROM x\n");
  project.write(".github/workflows/ci.yaml", "on: push\n");
  project.write("docker/cuda/Dockerfile", "FROM x\n");
  project.write("src/pkg/requirements.txt", "numpy\n");  // a subdirectory's own files are not the root's
  std::vector<std::string> names;
  for (const fs::path& file : pin_sources(project.root()))
    names.push_back(file.lexically_relative(project.root()).generic_string());
  CHECK(names == std::vector<std::string>{"requirements.txt", "Dockerfile", "docker/cuda/Dockerfile",
                                          ".github/workflows/ci.yaml"});
}

TEST_CASE("malformed files are skipped with a note, never a crash") {
  TempProject project;
  project.write("pyproject.toml", "[project\ndependencies = [\"torch>=2.9\"\n");
  project.write("requirements.txt", "torch>=two\n");
  project.write("constraints.txt", "torch>=2.8\n");
  project.write("setup.py", "setup(install_requires=['torch>=2.9'\n");  // unterminated: still read
  project.write("setup.cfg", "[options\ninstall_requires = torch>=\n");
  project.write("environment.yml", "dependencies:\n  - pytorch=???\n\x01\x02\n");
  TorchRange range;
  REQUIRE_NOTHROW(range = project_torch_range(project.root()));
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "constraints.txt:1"));
  auto noted = [&](const std::string& file) {
    return std::any_of(range.notes.begin(), range.notes.end(),
                       [&](const std::string& note) { return note.find(file) != std::string::npos; });
  };
  CHECK(noted("pyproject.toml:1"));
  CHECK(noted("requirements.txt:1"));
  CHECK(noted("environment.yml:2"));
}

TEST_CASE("environments found deeper: tool folders, install scripts, reqs lists, conda through a path") {
  TempProject project;
  project.write("tools/docker/Dockerfile_dev.cpu",
                "FROM x\nRUN /opt/conda/bin/conda install pytorch==1.3.1 -c pytorch\n");
  project.write("tools/docker/Dockerfile_release.cpu", "FROM x\nRUN /opt/conda/bin/conda install pytorch==1.5.0\n");
  project.write("packaging/dependencies/gpu/reqs_pip_torch_gpu.txt",
                "torch==2.1.2+cpu -f https://download.pytorch.org/whl/torch_stable.html\n");
  project.write(".azure-pipelines/scripts/install.sh", "pip install torch==2.11.0\n");
  project.write(".github/workflows/pipeline.yml", "env:\n  VER_TORCH: \"1.13.1\"\n  MIN_TORCH_VERSION: \"2.0\"\n");
  TorchRange range = expect_range(project, {1, 3}, "Dockerfile_dev.cpu:2");
  // Images, scripts and CI jobs are alternatives: their exact pins conflict with nothing.
  CHECK(range.warnings.empty());
  CHECK_FALSE(range.max_torch.has_value());
  CHECK(range.notes.empty());
  CHECK(range.files.size() == 5);
}

TEST_CASE("comments in requirement files include nothing") {
  TempProject project;
  for (const char* legacy : {"legacy/old.txt", "legacy/pins.txt"}) project.write(legacy, "torch==1.8\n");
  project.write("requirements.txt", "numpy\n# -r legacy/old.txt\ntorch>=2.6  # see -c legacy/pins.txt\n");
  TorchRange range = expect_range(project, {2, 6}, "requirements.txt:3");
  CHECK(range.notes.empty());
  CHECK(range.files.size() == 1);
}
