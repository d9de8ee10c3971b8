# SPDX-License-Identifier: MIT
"""End-to-end tests of the pre-commit hooks in .pre-commit-hooks.yaml, run by the real
`pre-commit` in temporary git repositories, offline: the hooks file is committed to a local
hooks repository that the project's .pre-commit-config.yaml names by path and commit, exactly
as users name this repository by URL and tag."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BINARY = os.environ.get("TORCHMIGRATE_BIN", "torchmigrate")
SOURCE_DIR = Path(os.environ.get("TORCHMIGRATE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HOOKS_FILE = SOURCE_DIR / ".pre-commit-hooks.yaml"
PRE_COMMIT = shutil.which("pre-commit")
GIT = shutil.which("git")

# A concise finding line in the hook's output: path:line:col: CODE ...
FINDING = re.compile(r"^(?P<path>[^\s:][^:\n]*):(?P<line>\d+):(?P<column>\d+): (?P<code>TM\d{3}) ", re.MULTILINE)

PY_BAD = "import torch\n\nep = torch.export.export(model, (x,))\n"
PY_FIXED = "import torch\n\nep = torch.export.export(model, (x,), strict=True)\n"
C_BAD = ("#include <ATen/dlpack.h>\n\nint is_pinned(const DLTensor* t) {\n"
         "  return t->device.device_type == kDLCPUPinned;\n}\n")
ENV_ASSIGNMENT = "AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0=1\n"

# One file of every kind torchmigrate reads, each with a finding in it.
READ = {
    "pkg/model.py": PY_BAD,
    "pkg/stubs.pyi": PY_BAD,
    "setup.py": PY_BAD,
    **{f"csrc/dl{extension}": C_BAD for extension in (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh")},
    "docker/Dockerfile": "FROM python:3.12\nENV " + ENV_ASSIGNMENT,
    "docker/Dockerfile.gpu": "FROM python:3.12\nENV " + ENV_ASSIGNMENT,
    "docker/base.dockerfile": "FROM python:3.12\nENV " + ENV_ASSIGNMENT,
    "Containerfile": "FROM python:3.12\nENV " + ENV_ASSIGNMENT,
    "CMakeLists.txt": 'set(TORCH_CUDA_ARCH_LIST "6.1;7.0")\n',
    "cmake/arch.cmake": 'set(TORCH_CUDA_ARCH_LIST "6.1;7.0")\n',
    "Makefile": "TORCH_CUDA_ARCH_LIST := 6.1 7.0\n",
    "GNUmakefile": "TORCH_CUDA_ARCH_LIST := 6.1 7.0\n",
    "rules.mk": "TORCH_CUDA_ARCH_LIST := 6.1 7.0\n",
    "requirements.txt": "torch>=2.7,<2.8\nonnxscript==0.2.5\n",
    "requirements-dev.txt": "onnxscript==0.2.5\n",
    "constraints.txt": "onnxscript==0.2.5\n",
    ".github/workflows/ci.yml": "env:\n  " + ENV_ASSIGNMENT.replace("=", ": "),
    "compose.yaml": "services:\n  app:\n    environment:\n      - " + ENV_ASSIGNMENT,
    "environment.yml": "dependencies:\n  - pip:\n    - onnxscript==0.2.5\n",
    "scripts/run.sh": "#!/bin/sh\nexport " + ENV_ASSIGNMENT,
    "scripts/run.bash": "#!/bin/bash\nexport " + ENV_ASSIGNMENT,
    "pyproject.toml": '[tool.cibuildwheel.environment]\nTORCH_CUDA_ARCH_LIST = "6.1;7.0"\n',
    "setup.cfg": "[options]\ninstall_requires =\n    onnxscript==0.2.5\n",
    ".env": ENV_ASSIGNMENT,
    "app.env": ENV_ASSIGNMENT,
    "scripts/build.bat": "set " + ENV_ASSIGNMENT,
    "scripts/build.CMD": "set " + ENV_ASSIGNMENT,
    "Singularity": "Bootstrap: docker\n%environment\n    export " + ENV_ASSIGNMENT,
    "containers/Apptainer.gpu": "Bootstrap: docker\n%environment\n    export " + ENV_ASSIGNMENT,
    "containers/train.def": "Bootstrap: docker\n%post\n    export " + ENV_ASSIGNMENT,
}
# Files a directory walk never reads (unknown kinds, skipped directories), though their text
# would have findings: the hooks must not hand them to torchmigrate either.
EVERY_BAD_LINE = PY_BAD + C_BAD + ENV_ASSIGNMENT + "onnxscript==0.2.5\n"
NOT_READ = {
    "README.md": EVERY_BAD_LINE,
    "notes.txt": EVERY_BAD_LINE,
    "dev-requirements.txt": "onnxscript==0.2.5\n",
    "bin/launch": "#!/bin/sh\nexport " + ENV_ASSIGNMENT,
    "pkg/model.py.orig": PY_BAD,
    "build/generated.py": PY_BAD,
    "dist/old.py": PY_BAD,
    "node_modules/tool/x.py": PY_BAD,
    ".venv/lib/site.py": PY_BAD,
    ".tox/py312/conftest.py": PY_BAD,
    "src/build/helper.sh": "export " + ENV_ASSIGNMENT,
    "docs/singularity.md": "%environment\n    export " + ENV_ASSIGNMENT,
}


def git(*args, cwd, env):
    return subprocess.run([GIT, *args], cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout


@unittest.skipUnless(PRE_COMMIT and GIT, "needs the `pre-commit` and `git` programs (Debian packages)")
class PreCommitHooks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = Path(tempfile.mkdtemp(prefix="torchmigrate-precommit-"))
        # The hooks call `torchmigrate` by name; put the binary under test first on PATH.
        binary = shutil.which(BINARY)
        if binary is None:
            raise unittest.SkipTest(f"torchmigrate binary not found: {BINARY}")
        bin_dir = cls.root / "bin"
        bin_dir.mkdir()
        (bin_dir / "torchmigrate").symlink_to(Path(binary).resolve())
        cls.env = {key: value for key, value in os.environ.items()
                   if not key.startswith(("GIT_", "PRE_COMMIT")) and key != "SKIP"}
        cls.env.update({
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PRE_COMMIT_HOME": str(cls.root / "pre-commit-home"),  # its clone cache: nothing shared, nothing fetched
            "PRE_COMMIT_COLOR": "never",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_AUTHOR_NAME": "e2e", "GIT_AUTHOR_EMAIL": "e2e@example.invalid",
            "GIT_COMMITTER_NAME": "e2e", "GIT_COMMITTER_EMAIL": "e2e@example.invalid",
        })
        # The hooks repository: the working tree's hooks file, committed.
        cls.hooks_repo = cls.root / "hooks-repo"
        cls.hooks_repo.mkdir()
        git("init", "-q", cwd=cls.hooks_repo, env=cls.env)
        shutil.copyfile(HOOKS_FILE, cls.hooks_repo / ".pre-commit-hooks.yaml")
        git("add", ".pre-commit-hooks.yaml", cwd=cls.hooks_repo, env=cls.env)
        git("commit", "-q", "-m", "hooks", cwd=cls.hooks_repo, env=cls.env)
        cls.rev = git("rev-parse", "HEAD", cwd=cls.hooks_repo, env=cls.env).strip()
        cls.count = 0

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def project(self, files, hooks=({"id": "torchmigrate"},)):
        """A fresh git repository holding `files` (all staged) and a config using `hooks`."""
        type(self).count += 1
        project = self.root / f"project-{self.count}"
        project.mkdir()
        git("init", "-q", cwd=project, env=self.env)
        files = {"requirements.txt": "torch>=2.7,<2.8\n", **files}  # a pinned range: safe fixes apply
        for relative, text in files.items():
            path = project / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        config = {"repos": [{"repo": str(self.hooks_repo), "rev": self.rev, "hooks": list(hooks)}]}
        (project / ".pre-commit-config.yaml").write_text(json.dumps(config, indent=2) + "\n")  # JSON is YAML
        git("add", "-A", cwd=project, env=self.env)
        return project

    def pre_commit(self, project, *args):
        return subprocess.run([PRE_COMMIT, "run", *args], cwd=project, env=self.env, capture_output=True, text=True,
                              timeout=300)

    def assert_exit(self, result, code):
        self.assertEqual(result.returncode, code, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")

    def reported_paths(self, output):
        return {os.path.normpath(match["path"]) for match in FINDING.finditer(output)}

    def directory_run_paths(self, project):
        """Files with findings when torchmigrate walks the whole project itself."""
        result = subprocess.run([BINARY, "check", ".", "--output-format", "json", "--exit-zero"], cwd=project,
                                capture_output=True, text=True, timeout=300)
        self.assert_exit(result, 0)
        return {os.path.normpath(finding["filename"]) for finding in json.loads(result.stdout)}

    def test_hooks_file_is_a_valid_manifest_with_its_three_hooks(self):
        result = subprocess.run([PRE_COMMIT, "validate-manifest", str(HOOKS_FILE)], env=self.env, capture_output=True,
                                text=True, timeout=120)
        self.assert_exit(result, 0)
        ids = re.findall(r"^- id: (\S+)$", HOOKS_FILE.read_text(), re.MULTILINE)
        self.assertEqual(ids, ["torchmigrate", "torchmigrate-fix", "torchmigrate-docker"])

    def test_check_hook_fails_on_a_file_with_findings(self):
        project = self.project({"model.py": PY_BAD})
        result = self.pre_commit(project, "torchmigrate", "--files", "model.py")
        self.assert_exit(result, 1)
        self.assertIn("torchmigrate", result.stdout)
        self.assertIn("Failed", result.stdout)
        self.assertRegex(result.stdout, r"(?m)^model\.py:3:\d+: TM201 ")
        self.assertEqual((project / "model.py").read_text(), PY_BAD, "the check hook must not write")

    def test_check_hook_passes_on_a_clean_file(self):
        project = self.project({"model.py": PY_FIXED})
        result = self.pre_commit(project, "torchmigrate", "--files", "model.py")
        self.assert_exit(result, 0)
        self.assertRegex(result.stdout, r"torchmigrate\.+Passed")

    def test_fix_hook_rewrites_the_file_and_then_passes(self):
        project = self.project({"model.py": PY_BAD}, hooks=({"id": "torchmigrate-fix"},))
        result = self.pre_commit(project, "torchmigrate-fix", "--files", "model.py")
        # A modified file must fail the hook so the user reviews the change before committing.
        self.assert_exit(result, 1)
        self.assertIn("files were modified by this hook", result.stdout)
        self.assertEqual((project / "model.py").read_text(), PY_FIXED)
        again = self.pre_commit(project, "torchmigrate-fix", "--files", "model.py")
        self.assert_exit(again, 0)
        self.assertEqual((project / "model.py").read_text(), PY_FIXED)

    def test_fix_hook_leaves_findings_without_a_safe_fix_to_the_check_hook(self):
        # TM102's fix needs torch 2.8, so it is unsafe while 2.7 is supported: nothing is applied.
        text = ("from torch.fx.experimental.symbolic_shapes import definitely_true\n\n"
                "if definitely_true(a == b):\n    pass\n")
        project = self.project({"model.py": text}, hooks=({"id": "torchmigrate-fix"},))
        result = self.pre_commit(project, "torchmigrate-fix", "--files", "model.py")
        self.assert_exit(result, 0)
        self.assertNotRegex(result.stdout, r"TM102")
        self.assertEqual((project / "model.py").read_text(), text)

    def test_both_documented_hooks_print_each_finding_once(self):
        # One fixable finding (TM201) and one without a safe fix (TM102), with the set-up that
        # docs/pre-commit.md shows: the fix hook, then the check hook.
        text = ("import torch\nfrom torch.fx.experimental.symbolic_shapes import definitely_true\n\n"
                "ep = torch.export.export(model, (x,))\nif definitely_true(a == b):\n    pass\n")
        project = self.project({"model.py": text}, hooks=({"id": "torchmigrate-fix"}, {"id": "torchmigrate"}))
        result = self.pre_commit(project, "--files", "model.py")
        self.assert_exit(result, 1)
        self.assertIn("files were modified by this hook", result.stdout)
        self.assertEqual(len(re.findall(r"(?m)^model\.py:5:\d+: TM102 ", result.stdout)), 1, result.stdout)
        self.assertNotRegex(result.stdout, r"(?m)^model\.py:4:\d+: TM201 ")  # fixed before the check ran
        self.assertIn("strict=True", (project / "model.py").read_text())
        again = self.pre_commit(project, "--files", "model.py")
        self.assertEqual(len(re.findall(r"(?m)^model\.py:5:\d+: TM102 ", again.stdout)), 1, again.stdout)

    def test_commit_time_run_checks_only_the_staged_files(self):
        project = self.project({"a.py": PY_BAD, "b.py": PY_BAD})
        git("commit", "-q", "-m", "initial", cwd=project, env=self.env)
        self.assertEqual(self.directory_run_paths(project), {"a.py", "b.py"})
        (project / "a.py").write_text(PY_BAD + "\nprint(ep)\n")
        git("add", "a.py", cwd=project, env=self.env)
        result = self.pre_commit(project, "torchmigrate")  # what `git commit` runs: the staged files
        self.assert_exit(result, 1)
        self.assertEqual(self.reported_paths(result.stdout), {"a.py"})

    def test_hooks_pass_exactly_the_files_a_directory_run_reads(self):
        recorder = self.root / "record_arguments.py"
        recorder.write_text("import sys\nwith open(sys.argv[1], 'a') as out:\n"
                            "    out.writelines(argument + '\\n' for argument in sys.argv[2:])\n")
        record = self.root / "passed-files.txt"
        # The manifest's files/exclude filters with the command swapped for one that lists its arguments.
        hooks = [{"id": "torchmigrate", "entry": f"{sys.executable} {recorder} {record}"}]
        project = self.project({**READ, **NOT_READ}, hooks=hooks)
        self.assert_exit(self.pre_commit(project, "torchmigrate", "--all-files"), 0)
        passed = {os.path.normpath(line) for line in record.read_text().splitlines()}
        # The config file itself is YAML, which torchmigrate reads too (it has no finding).
        self.assertEqual(passed, set(READ) | {".pre-commit-config.yaml"})
        # Every file that was passed has a finding in a directory walk, and nothing else does.
        self.assertEqual(self.directory_run_paths(project), set(READ))

    def test_check_hook_on_every_file_reports_what_a_directory_run_reports(self):
        project = self.project({**READ, **NOT_READ})
        result = self.pre_commit(project, "torchmigrate", "--all-files")
        self.assert_exit(result, 1)
        self.assertEqual(self.reported_paths(result.stdout), self.directory_run_paths(project))


if __name__ == "__main__":
    unittest.main()
