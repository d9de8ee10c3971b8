# SPDX-License-Identifier: MIT
"""Project-tree fixtures: verdicts that depend on the project a file sits in (its pins, headers,
configuration, submodules) are tested on tiny projects.

Each folder under tests/fixtures/projects/ holds:
  README.md   what the case proves
  tree/       the project; copied to a temporary directory that becomes a git repository
  cases.json  a list of runs: {"cwd": ".", "args": [...], "exit": N, "stdout": "expected.txt",
              "stderr": "expected-stderr.txt", "tree_after": "fixed"}; `stdout` and `stderr` name
              files of the case holding the exact expected output (the temporary root written as
              `<root>`), `tree_after` a folder whose files must equal the tree's after the run
              (e.g. after --fix). Runs share one copy, in order. Or an object
              {"git": false, "runs": [...]}: the copy is then no git repository (a plain folder).
"""
import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import SOURCE_DIR, run

PROJECTS = SOURCE_DIR / "tests" / "fixtures" / "projects"


def materialise(case_dir, git=True):
    """A fresh git repository (or plain folder) holding a copy of the case's tree; returns its root."""
    root = Path(tempfile.mkdtemp(prefix="torchmigrate-project-")).resolve()
    shutil.copytree(case_dir / "tree", root, dirs_exist_ok=True)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def compare_tree(test, root, expected_dir, label):
    for expected in sorted(p for p in expected_dir.rglob("*") if p.is_file()):
        relative = expected.relative_to(expected_dir)
        actual = root / relative
        test.assertTrue(actual.exists(), f"{label}: {relative} is missing after the run")
        test.assertEqual(expected.read_bytes().decode(), actual.read_bytes().decode(), f"{label}: {relative}")


class ProjectFixtures(unittest.TestCase):
    def test_every_project_fixture(self):
        cases = sorted(p for p in PROJECTS.iterdir() if (p / "cases.json").exists()) if PROJECTS.exists() else []
        for case_dir in cases:
            with self.subTest(case=case_dir.name):
                self.assertTrue((case_dir / "README.md").exists(), f"{case_dir.name} needs a README.md")
                spec_file = json.loads((case_dir / "cases.json").read_text())
                runs = spec_file["runs"] if isinstance(spec_file, dict) else spec_file
                git = spec_file.get("git", True) if isinstance(spec_file, dict) else True
                root = materialise(case_dir, git)
                try:
                    for index, spec in enumerate(runs):
                        label = f"{case_dir.name} run {index + 1} ({' '.join(spec['args'])})"
                        result = run(*spec["args"], cwd=root / spec.get("cwd", "."))
                        output = result.stdout.replace(str(root), "<root>")
                        if "stdout" in spec:
                            expected = (case_dir / spec["stdout"]).read_text()
                            self.assertEqual(expected, output, f"{label}\nstderr:\n{result.stderr}")
                        if "stderr" in spec:
                            expected = (case_dir / spec["stderr"]).read_text()
                            self.assertEqual(expected, result.stderr.replace(str(root), "<root>"), label)
                        if "exit" in spec:
                            self.assertEqual(spec["exit"], result.returncode, f"{label}\nstderr:\n{result.stderr}")
                        if "tree_after" in spec:
                            compare_tree(self, root, case_dir / spec["tree_after"], label)
                finally:
                    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
