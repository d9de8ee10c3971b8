// SPDX-License-Identifier: MIT
// Unit tests of the build-file front: file kinds, logical lines, assignments, requirements,
// the PEP 440 evaluator, and the project facts TM402/TM403 depend on.
#include <catch2/catch.hpp>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/buildfiles/shell_words.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/project.hpp"
#include "torchmigrate/engine/workspace/python_source_facts.hpp"

using namespace torchmigrate;
using namespace torchmigrate::buildfiles;

namespace {

bool below(std::string_view specifier, std::string_view bound = "0.3.1") {
  std::optional<std::vector<Specifier>> parsed = parse_specifiers(specifier);
  REQUIRE(parsed.has_value());
  return admits_version_below(*parsed, *Version::parse(bound));
}

}  // namespace

TEST_CASE("file kinds by name") {
  CHECK(kind_for("Dockerfile") == FileKind::Dockerfile);
  CHECK(kind_for("docker/Dockerfile.cuda") == FileKind::Dockerfile);
  CHECK(kind_for("gpu.dockerfile") == FileKind::Dockerfile);
  CHECK(kind_for("ci/build.sh") == FileKind::Shell);
  CHECK(kind_for(".github/workflows/ci.yml") == FileKind::Yaml);
  CHECK(kind_for("environment-dev.yml") == FileKind::CondaEnvironment);
  CHECK(kind_for("CMakeLists.txt") == FileKind::CMake);
  CHECK(kind_for("cmake/deps.cmake") == FileKind::CMake);
  CHECK(kind_for("Makefile") == FileKind::Makefile);
  CHECK(kind_for("rules.mk") == FileKind::Makefile);
  CHECK(kind_for("pyproject.toml") == FileKind::Toml);
  CHECK(kind_for("setup.cfg") == FileKind::Ini);
  CHECK(kind_for("requirements-dev.txt") == FileKind::Requirements);
  CHECK(kind_for("constraints.txt") == FileKind::Requirements);
  CHECK(kind_for("setup.py") == FileKind::SetupPy);
  CHECK(kind_for(".env") == FileKind::DotEnv);
  CHECK(kind_for("notes.txt") == FileKind::Unknown);
  // Split requirement files: `requirements/test.txt`, `requirements/pytorch/base.txt`.
  CHECK(kind_for("requirements/test.txt") == FileKind::Requirements);
  CHECK(kind_for("requirements/pytorch/base.txt") == FileKind::Requirements);
  CHECK(kind_for("Requirements/docs.txt") == FileKind::Requirements);
  CHECK(kind_for("requirements/a/b/notes.txt") == FileKind::Unknown);
  CHECK(kind_for("docs/notes.txt") == FileKind::Unknown);
  CHECK(kind_for("main.py") == FileKind::Unknown);
  ExtraExtensions extra{{".containerfile", FileKind::Dockerfile}};
  CHECK(kind_for("gpu.containerfile", extra) == FileKind::Dockerfile);
  CHECK(parse_kind("dockerfile") == FileKind::Dockerfile);
  CHECK_FALSE(parse_kind("docker").has_value());
}

TEST_CASE("discovery picks the build front, keeps setup.py Python") {
  CHECK(engine::language_for("Dockerfile") == Language::BuildFile);
  CHECK(engine::language_for("requirements.txt") == Language::BuildFile);
  CHECK(engine::language_for("setup.py") == Language::Python);
  CHECK(engine::language_for("notes.txt") == Language::Unknown);
  CHECK(engine::language_for("x.containerfile", {{".containerfile", FileKind::Dockerfile}}) == Language::BuildFile);
}

TEST_CASE("logical lines join continuations and drop comments, keeping offsets") {
  std::string text = "RUN a \\\n    # dropped by Docker\n    b # trailing\nENV X=\"a # b\"\n";
  std::vector<LogicalLine> lines = logical_lines(text, FileKind::Dockerfile);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].text == "RUN a     b ");
  CHECK(text[lines[0].offsets[10]] == 'b');
  CHECK(lines[0].begin == 0);
  CHECK(lines[0].end == text.find("ENV"));
  CHECK(lines[1].text == "ENV X=\"a # b\"");

  std::string cmake = "set(X\n  6.1 # arch\n  7.0)\nmessage(x)\n";
  std::vector<LogicalLine> commands = logical_lines(cmake, FileKind::CMake);
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].text == "set(X   6.1    7.0)");

  std::vector<LogicalLine> requirements = logical_lines("pkg==1.0 # note\nurl#egg=x\n", FileKind::Requirements);
  CHECK(requirements[0].text == "pkg==1.0 ");
  CHECK(requirements[1].text == "url#egg=x");
}

TEST_CASE("assignments in each format, with removals that keep the syntax valid") {
  auto find = [](std::string_view text, FileKind kind) {
    BuildFile file = BuildFile::read(text, kind);
    return find_assignments(file, {"X"});
  };
  std::string docker = "ENV A=1 X=0 B=2\n";
  auto found = find(docker, FileKind::Dockerfile);
  REQUIRE(found.size() == 1);
  CHECK(found[0].value == "0");
  REQUIRE(found[0].removal.has_value());
  CHECK(docker.substr(0, found[0].removal->start) + docker.substr(found[0].removal->end) == "ENV A=1 B=2\n");

  found = find("ENV X \"6.1 7.0\"\n", FileKind::Dockerfile);
  REQUIRE(found.size() == 1);
  CHECK(found[0].value == "6.1 7.0");
  CHECK(found[0].value_quoted);

  std::string shell = "X=0 python run.py\nmake && X=0 && make test\ndocker run -e X=1 img\necho $X\n";
  found = find(shell, FileKind::Shell);
  REQUIRE(found.size() == 3);
  CHECK(shell.substr(found[0].removal->start, found[0].removal->length()) == "X=0 ");
  CHECK_FALSE(found[1].removal.has_value());
  CHECK_FALSE(found[2].removal.has_value());

  std::string yaml = "env:\n  X: \"1\"\njobs:\n  a:\n    env:\n      X: 0\n";
  found = find(yaml, FileKind::Yaml);
  REQUIRE(found.size() == 2);
  CHECK(found[0].value == "1");
  CHECK(found[0].value_quoted);
  CHECK_FALSE(found[1].removal.has_value());  // the only key of its mapping

  found = find("set(ENV{X} \"6.1;7.0\")\nset(X 5.0 6.0 CACHE STRING \"\")\n", FileKind::CMake);
  REQUIRE(found.size() == 2);
  CHECK(found[0].value == "6.1;7.0");
  CHECK(found[1].value == "5.0;6.0");

  found = find("export X ?= 1\n\tX=0 cmd\n", FileKind::Makefile);
  REQUIRE(found.size() == 2);
  CHECK(found[0].value == "1");
  CHECK(found[1].value == "0");
}

TEST_CASE("PEP 440 versions and specifier sets") {
  CHECK(*Version::parse("1.0") == *Version::parse("1.0.0"));
  CHECK(*Version::parse("0.3.1rc1") < *Version::parse("0.3.1"));
  CHECK(*Version::parse("0.3.1.dev1") < *Version::parse("0.3.1a1"));
  CHECK(*Version::parse("0.3.1") < *Version::parse("0.3.1.post1"));
  CHECK(*Version::parse("9.0") < *Version::parse("1!0.1"));
  CHECK_FALSE(Version::parse("abc").has_value());

  CHECK(below("==0.2.5"));
  CHECK(below("<0.3"));
  CHECK(below(">=0.1"));
  CHECK(below("~=0.2.0"));
  CHECK(below("==0.2.*"));
  CHECK(below(">=0.1,<1.0"));
  CHECK(below("<=0.3.0"));
  CHECK_FALSE(below(">=0.3.1"));
  CHECK_FALSE(below("~=0.4"));
  CHECK_FALSE(below("==0.4.0"));
  CHECK_FALSE(below(">0.3.1,<1"));
  CHECK_FALSE(below("==0.3.*,>=0.3.1"));
  CHECK_FALSE(below(">=0.1,>=0.3.1"));
  CHECK_FALSE(below("<0.2,>0.2"));  // empty set
  CHECK(below("!=0.3.0"));
  CHECK_FALSE(parse_specifiers("0.2.5").has_value());
  CHECK_FALSE(parse_specifiers(">=0.3.*").has_value());
}

TEST_CASE("~= keeps the precision it was written with") {
  // ~=2.8.0 is >=2.8.0,==2.8.*: 2.8.9 is inside, 2.9 outside.
  CHECK(below("~=2.8.0,<2.8.9", "2.8.9"));
  CHECK_FALSE(lowest_admitted(*parse_specifiers("~=2.8.0,>=2.9")).has_value());
  CHECK(lowest_admitted(*parse_specifiers("~=2.8,>=2.9")).has_value());  // ~=2.8 is >=2.8,==2.*
  CHECK(*Version::parse("2.8.0") == *Version::parse("2.8"));
  CHECK(Version::parse("2.8.0")->release().size() == 3);
}

TEST_CASE("the lowest version a specifier set admits") {
  auto lowest = [](std::string_view text) -> std::optional<std::string> {
    std::optional<std::vector<Specifier>> parsed = parse_specifiers(text);
    REQUIRE(parsed.has_value());
    std::optional<LowerBound> bound = lowest_admitted(*parsed);
    if (!bound) return std::nullopt;
    std::string out = bound->inclusive ? "[" : "(";
    for (long part : bound->version.release()) out += std::to_string(part) + ".";
    out.pop_back();
    if (bound->version.is_prerelease()) out += "-pre";
    return out;
  };
  CHECK(lowest(">=2.7,<2.9") == "[2.7");
  CHECK(lowest(">2.7") == "(2.7");
  CHECK(lowest("<2.9, >=2.6.1") == "[2.6.1");
  CHECK(lowest(">=2.6,>=2.8") == "[2.8");
  CHECK(lowest("==2.8.*") == "[2.8-pre");  // 2.8.dev0, the first 2.8 release of any kind
  CHECK(lowest("~=2.8.0") == "[2.8.0");
  CHECK(lowest("==2.8.0+cu128") == "[2.8.0");
  CHECK(lowest("!=2.7.0,>=2.7") == "(2.7.0");  // 2.7 equals 2.7.0, which is excluded
  CHECK_FALSE(lowest("<2.9").has_value());
  CHECK_FALSE(lowest("!=2.7.0").has_value());
  CHECK_FALSE(lowest("").has_value());
  CHECK_FALSE(lowest(">=2.9,<2.8").has_value());
}

TEST_CASE("requirements in each packaging format") {
  auto names = [](std::string_view text, FileKind kind) {
    std::vector<std::string> out;
    for (const Requirement& requirement : find_requirements(BuildFile::read(text, kind), "onnxscript")) {
      out.push_back(requirement.name + "|" + requirement.specifier);
    }
    return out;
  };
  CHECK(names("onnxscript==0.2.5 # x\nONNX_Script>=0.1\nonnx==1.0\n# onnxscript<0.3\n", FileKind::Requirements) ==
        std::vector<std::string>{"onnxscript|==0.2.5"});
  CHECK(names("Onnxscript[x] (>=0.1) ; python_version>'3'\n", FileKind::Requirements) ==
        std::vector<std::string>{"Onnxscript|>=0.1"});
  CHECK(names("[project]\ndependencies = [\n  \"onnxscript<0.3\",\n]\n[tool.x]\ny = \"onnxscript==0.1\"\n",
              FileKind::Toml) == std::vector<std::string>{"onnxscript|<0.3"});
  CHECK(names("[options]\ninstall_requires =\n    onnxscript==0.2.5\n    torch\n", FileKind::Ini) ==
        std::vector<std::string>{"onnxscript|==0.2.5"});
  CHECK(names("dependencies:\n  - onnxscript=0.2.5\n  - pip:\n    - onnxscript<0.3\n", FileKind::CondaEnvironment) ==
        std::vector<std::string>{"onnxscript|==0.2.5.*", "onnxscript|<0.3"});
  CHECK(names("RUN pip install -r req.txt onnxscript==0.2.5 && echo onnxscript==0.1\n", FileKind::Dockerfile) ==
        std::vector<std::string>{"onnxscript|==0.2.5"});
  CHECK(names("setup(install_requires=['onnxscript~=0.2.0'])  # 'onnxscript<0.1'\n", FileKind::SetupPy) ==
        std::vector<std::string>{"onnxscript|~=0.2.0"});
  CHECK(normalize_name("ONNX_Script.extra") == "onnx-script-extra");
}

TEST_CASE("project facts: torch.onnx.export(..., dynamo=True) resolved through imports") {
  CHECK(engine::calls_onnx_dynamo_export("import torch\ntorch.onnx.export(m, (x,), dynamo=True)\n"));
  CHECK(engine::calls_onnx_dynamo_export("from torch.onnx import export as ex\nex(m, (x,), 'a.onnx', dynamo=True)\n"));
  CHECK_FALSE(engine::calls_onnx_dynamo_export("import torch\ntorch.onnx.export(m, (x,), dynamo=False)\n"));
  CHECK_FALSE(engine::calls_onnx_dynamo_export("def export(*a, **k): pass\nexport(m, dynamo=True)  # onnx\n"));
  CHECK_FALSE(engine::calls_onnx_dynamo_export("# torch.onnx.export(m, dynamo=True)\n"));
}

TEST_CASE("TM402 is an error when the project exports with dynamo=True") {
  engine::Settings settings;
  settings.selection.select = {"TM402"};
  SourceFile file("requirements.txt", "onnxscript==0.2.5\n", Language::BuildFile);
  {
    engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
    std::vector<Diagnostic> found = linter.lint(file);
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::Warning);
  }
  settings.project = engine::Project::with_facts(engine::ProjectFacts().set(engine::facts::onnx_dynamo_export, true));
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  std::vector<Diagnostic> found = linter.lint(file);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Error);
  CHECK(found[0].message.find("this project calls it") != std::string::npos);
}

TEST_CASE("TM403 uses the project fact that another CMake file finds Torch") {
  engine::Settings settings;
  settings.selection.select = {"TM403"};
  SourceFile file("cmake/ext.cmake", "target_link_libraries(ext torch::nvtx3)\n", Language::BuildFile);
  CHECK(engine::Linter(engine::Catalog::builtin(), checks::builtin_registry(), settings).lint(file).empty());
  settings.project = engine::Project::with_facts(engine::ProjectFacts().set(engine::facts::cmake_finds_torch, true));
  CHECK(engine::Linter(engine::Catalog::builtin(), checks::builtin_registry(), settings).lint(file).size() == 1);
}

TEST_CASE("an unclosed command substitution ends its word at the end of the text") {
  for (std::string_view text : {"echo $(date", "a $((1 + (2)", "x=$("}) {
    std::vector<ShellWord> words = shell_words(text);
    REQUIRE_FALSE(words.empty());
    CHECK(words.back().end == text.size());
  }
}

TEST_CASE("pep440: whether a specifier set admits one version") {
  auto admits = [](std::string_view specifier, std::string_view version) {
    std::optional<std::vector<Specifier>> parsed = parse_specifiers(specifier);
    REQUIRE(parsed.has_value());
    return admits_version(*parsed, *Version::parse(version));
  };
  CHECK_FALSE(admits("<3.6", "3.6.0"));
  CHECK_FALSE(admits("==3.5.*", "3.6.0"));
  CHECK_FALSE(admits("!=3.6.0", "3.6"));
  CHECK_FALSE(admits("~=3.4.0", "3.6.0"));
  CHECK(admits("<=3.6", "3.6.0"));
  CHECK(admits(">=3.0,<4", "3.6.0"));
  CHECK(admits("==3.6.*", "3.6.0"));
  CHECK(admits("~=3.5", "3.6.0"));
}
