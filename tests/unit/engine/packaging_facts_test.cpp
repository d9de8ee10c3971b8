// SPDX-License-Identifier: MIT
// The Python versions a project's files admit, and where its dependencies are declared.
#include <catch2/catch.hpp>

#include "torchmigrate/engine/workspace/packaging_facts.hpp"

using namespace torchmigrate::engine;
using torchmigrate::buildfiles::FileKind;

namespace {

PythonVersions read(const std::string& file, FileKind kind, std::string_view text) {
  PythonVersions versions;
  read_python_versions(file, kind, text, versions);
  return versions;
}

}  // namespace

TEST_CASE("declared Python requirements and classifiers") {
  PythonVersions toml = read("pyproject.toml", FileKind::Toml, "[project]\nrequires-python = \">=3.9\"\n");
  CHECK(toml.lowest == "3.9");
  CHECK(toml.requirement.where() == "pyproject.toml:2");
  CHECK(toml.requirement_specifier == ">=3.9");
  CHECK(read("pyproject.toml", FileKind::Toml, "requires-python = \"~=3.8\"\n").lowest == "3.8");
  CHECK(read("pyproject.toml", FileKind::Toml, "requires-python = \"==3.9.*\"\n").lowest == "3.9");
  PythonVersions upper = read("pyproject.toml", FileKind::Toml, "requires-python = \"<3.12\"\n");
  CHECK(upper.lowest.empty());
  CHECK(upper.requirement.found());
  CHECK(read("setup.py", FileKind::SetupPy, "setup(python_requires='>=3.10')\n").lowest == "3.10");
  CHECK(read("setup.cfg", FileKind::Ini, "[options]\npython_requires = >=3.8\n").lowest == "3.8");
  PythonVersions classifiers = read("setup.py", FileKind::SetupPy,
                                    "classifiers=[\n 'Programming Language :: Python :: 3.10',\n"
                                    " 'Programming Language :: Python :: 3.9',\n]\n");
  CHECK(classifiers.lowest == "3.9");
  CHECK(classifiers.lowest_from.line == 3);
  CHECK(classifiers.highest == "3.10");
  CHECK(classifiers.highest_from.line == 2);
  // Another TOML file's `requires-python` is not the project's.
  CHECK(read("ruff.toml", FileKind::Toml, "requires-python = \">=3.8\"\n").lowest.empty());
}

TEST_CASE("environments that name a Python") {
  CHECK(read("tox.ini", FileKind::Ini, "[tox]\nenvlist = py39, py310, pypy38\n").lowest == "3.9");
  CHECK(read("tox.ini", FileKind::Ini, "[testenv]\nbasepython = python3.8\n").lowest == "3.8");
  CHECK(read("noxfile.py", FileKind::Unknown, "@nox.session(python=[\"3.9\", \"3.11\"])\n").lowest == "3.9");
  CHECK(read("noxfile.py", FileKind::Unknown, "VERSION = \"3.8\"\n").lowest.empty());
  CHECK(read(".python-version", FileKind::Unknown, "3.9.18\n").lowest == "3.9");
  CHECK(read("environment.yml", FileKind::CondaEnvironment, "dependencies:\n  - python=3.9\n").lowest == "3.9");
  CHECK(read("Dockerfile", FileKind::Dockerfile, "FROM python:3.9-slim\n").lowest == "3.9");
}

TEST_CASE("CI matrices: Python keys only") {
  PythonVersions flow = read(".github/workflows/ci.yml", FileKind::Yaml,
                             "matrix:\n  python-version: [\"3.10\", '3.9']\n  node-version: [3.8]\n");
  CHECK(flow.lowest == "3.9");
  CHECK(flow.lowest_from.where() == ".github/workflows/ci.yml:2");
  PythonVersions block = read("ci.yml", FileKind::Yaml, "python_version:\n  - \"3.11\"\n  - 3.8\nother:\n  - 3.7\n");
  CHECK(block.lowest == "3.8");
  CHECK(read("ci.yml", FileKind::Yaml, "include:\n  - python: 3.9\n").lowest == "3.9");
  CHECK(read("ci.yml", FileKind::Yaml, "image: nvidia/cuda:12.9.1-devel\ncuda: \"12.9\"\n").lowest.empty());
  CHECK(read("ci.yml", FileKind::Yaml, "python-version: ${{ matrix.python }}\n").lowest.empty());
  CHECK(read("ci.yml", FileKind::Yaml, "image: python:3.9\n").lowest == "3.9");
}

TEST_CASE("a torch requirement capped for older Pythons by a marker") {
  PythonVersions guarded =
      read("requirements.txt", FileKind::Requirements, "torch<2.9; python_version < \"3.10\"\ntorch>=2.9\n");
  CHECK(guarded.guard_python_below == "3.10");
  CHECK(guarded.guard_torch_specifier == "<2.9");
  CHECK(read("requirements.txt", FileKind::Requirements, "torch<2.9; python_version <= '3.9'\n").guard_python_below ==
        "3.10");
  CHECK(read("requirements.txt", FileKind::Requirements, "torch>=2.1\n").guard_python_below.empty());
}
