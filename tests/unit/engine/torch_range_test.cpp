// SPDX-License-Identifier: MIT
// The supported torch range: PEP 440 lower bounds, each kind of pin file, precedence between
// files and over the default, and malformed files (skipped with a note, never a crash).
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "torchmigrate/engine/torch_range.hpp"
#include "temp_project.hpp"

using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

// The range a one-line requirements.txt `torch<specifiers>` gives; nullopt for the default.
TorchRange range_of(const std::string& requirement) {
  TempProject project;
  project.write("requirements.txt", requirement + "\n");
  return detect_torch_range(project.source());
}
std::optional<TorchVersion> lowest(const std::string& specifiers) {
  TorchRange range = range_of("torch" + specifiers);
  if (range.source == "default") return std::nullopt;
  return range.min_torch;
}
bool unreadable(const std::string& specifiers) {
  TorchRange range = range_of("torch" + specifiers);
  return range.source == "default" && range.notes.size() == 1 &&
         range.notes[0].find("cannot read the torch requirement") != std::string::npos;
}

bool ends_with(const std::string& text, const std::string& suffix) { return text.ends_with(suffix); }

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
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "requirements.txt:4"));
  CHECK(range.notes.empty());
}

TEST_CASE("requirements continued with a backslash keep the first line's number") {
  TempProject project;
  project.write("requirements-dev.txt", "pytest\ntorch==2.8.* \\\n    --hash=sha256:abc\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "requirements-dev.txt:2"));
}

TEST_CASE("requirements files included with -r or -c count, each read once") {
  TempProject project;
  project.write("requirements.txt", "-r requirements/base.txt\n--requirement=requirements/extra.txt\n-r requirements.txt\n");
  project.write("requirements/base.txt", "numpy\n-c ../constraints/torch.txt\n");
  project.write("requirements/extra.txt", "torch>=2.6\n");
  project.write("constraints/torch.txt", "torch >=2.1.0, <2.9\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 1});
  CHECK(ends_with(range.source, "torch.txt:1"));
  CHECK(range.notes.empty());
}

TEST_CASE("constraints.txt is read like a requirements file") {
  TempProject project;
  project.write("constraints.txt", "torch~=2.8.0\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "constraints.txt:1"));
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
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 6});
  CHECK(ends_with(range.source, "pyproject.toml:8"));
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
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "setup.cfg:6"));
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
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "setup.py:5"));
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
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "environment.yml:6"));
}

TEST_CASE("conda `pytorch 2.8.*` means 2.8") {
  TempProject project;
  project.write("environment-gpu.yaml", "dependencies:\n- \"pytorch 2.8.*\"\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 8});
  CHECK(ends_with(range.source, "environment-gpu.yaml:2"));
}

TEST_CASE("precedence: the lowest bound wins, ties go to requirements before pyproject") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.7,<2.9\n");
  project.write("pyproject.toml", "[project]\ndependencies = [\"torch>=2.7\"]\n");
  project.write("setup.py", "setup(install_requires=['torch>=2.8'])\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == TorchVersion{2, 7});
  CHECK(ends_with(range.source, "requirements.txt:1"));

  project.write("requirements.txt", "torch>=2.8\n");
  range = detect_torch_range(project.source());
  CHECK(ends_with(range.source, "pyproject.toml:2"));
}

TEST_CASE("precedence: an explicit override beats the pins, pins beat the default") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.8\n");
  TorchRange overridden = resolve_torch_range(TorchOverride{"2.9", "--min-torch"}, project.source());
  CHECK(overridden.min_torch == TorchVersion{2, 9});
  CHECK(overridden.source == "--min-torch");
  CHECK(overridden.describe() == "supported torch >= 2.9 (from --min-torch)");
  CHECK_THROWS_AS(resolve_torch_range(TorchOverride{"latest", "--min-torch"}, project.source()), std::invalid_argument);

  TorchRange detected = resolve_torch_range(std::nullopt, project.source());
  CHECK(detected.min_torch == TorchVersion{2, 8});
}

TEST_CASE("no pin with a lower bound falls back to the default") {
  TempProject project;
  project.write("requirements.txt", "torch\ntorch<2.9\nnumpy>=2\n");
  TorchRange range = detect_torch_range(project.source());
  CHECK(range.min_torch == default_min_torch());
  CHECK(range.source == "default");
  CHECK(range.describe().starts_with("supported torch >= 2.7 (default"));
}

TEST_CASE("the nearest directory with pin files is the project root") {
  TempProject project;
  project.write("requirements.txt", "torch>=2.6\n");
  project.write("src/pkg/requirements.txt", "torch>=2.8\n");
  project.write("src/pkg/module.py", "import torch\n");
  std::vector<fs::path> roots = find_project_roots({project.root() / "src" / "pkg" / "module.py"});
  REQUIRE(roots.size() == 1);
  CHECK(roots[0] == fs::weakly_canonical(project.root() / "src" / "pkg"));
  CHECK(detect_torch_range({project.root() / "src" / "pkg"}).min_torch == TorchVersion{2, 8});
  // Two projects checked together: the older one decides.
  CHECK(detect_torch_range({project.root() / "src" / "pkg", project.root() / "src"}).min_torch == TorchVersion{2, 6});
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
  REQUIRE_NOTHROW(range = detect_torch_range(project.source()));
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
