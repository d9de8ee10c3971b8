# SPDX-License-Identifier: MIT
"""End-to-end tests of batch fixing a whole project with `torchmigrate check --fix .`: the same
bytes for any thread count, a git diff that touches only flagged constructs, --diff matching
--fix exactly, and CRLF, BOM, permissions, read-only, binary files and symlinks handled."""
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

BINARY = os.environ.get("TORCHMIGRATE_BIN", "torchmigrate")
SOURCE_DIR = Path(os.environ.get("TORCHMIGRATE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLE = SOURCE_DIR / "examples" / "legacy-project"
BOM = b"\xef\xbb\xbf"
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def run(*args, cwd, expect=None):
    result = subprocess.run([BINARY, *map(str, args)], cwd=cwd, capture_output=True, timeout=300)
    if expect is not None and result.returncode != expect:
        raise AssertionError(f"exit {result.returncode} != {expect} for {args}\n"
                             f"stdout:\n{result.stdout.decode(errors='replace')}\n"
                             f"stderr:\n{result.stderr.decode(errors='replace')}")
    return result


def snapshot(root):
    """Every file under `root` (relative path -> bytes, mode), links as their targets."""
    tree = {}
    for path in sorted(Path(root).rglob("*")):
        if ".git" in path.relative_to(root).parts:
            continue
        if path.is_symlink():
            tree[str(path.relative_to(root))] = ("link", os.readlink(path))
        elif path.is_file():
            tree[str(path.relative_to(root))] = (path.read_bytes(), stat.S_IMODE(path.lstat().st_mode))
    return tree


def git(*args, cwd):
    return subprocess.run(["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", *args], cwd=cwd,
                          capture_output=True, text=True, check=True).stdout


class BatchFix(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="torchmigrate-batch-"))
        self.addCleanup(shutil.rmtree, self.root, True)

    def copy(self, name):
        target = self.root / name
        shutil.copytree(EXAMPLE, target, symlinks=True)
        return target

    def flagged_lines(self, project):
        """file -> set of 1-based lines covered by a finding that --fix would fix, or by its fix's edits
        (a missing #include is reported at the use and inserted after the include block)."""
        result = run("check", ".", "--output-format", "json", cwd=project, expect=1)
        flagged = {}
        for finding in json.loads(result.stdout):
            fix = finding["fix"]
            if fix is None or fix["applicability"] != "safe":
                continue
            lines = flagged.setdefault(finding["filename"], set())
            lines.update(range(finding["location"]["row"], finding["end_location"]["row"] + 1))
            for edit in fix["edits"]:
                lines.update(range(edit["location"]["row"], edit["end_location"]["row"] + 1))
        return flagged

    def test_thread_count_does_not_change_the_result(self):
        one, eight = self.copy("one"), self.copy("eight")
        first = run("check", "--fix", "-j", "1", ".", cwd=one, expect=1)
        second = run("check", "--fix", "-j", "8", ".", cwd=eight, expect=1)
        self.assertEqual(snapshot(one), snapshot(eight))
        self.assertNotEqual(snapshot(one), snapshot(EXAMPLE), "nothing was fixed")
        self.assertEqual(first.stdout, second.stdout)
        self.assertRegex(first.stdout.decode(), r"Found \d+ findings \(\d+ fixed, \d+ remaining: [^)]+\)\.")

    def test_git_diff_touches_only_flagged_lines_and_a_second_run_changes_nothing(self):
        project = self.copy("project")
        git("init", "-q", cwd=project)
        git("add", "-A", cwd=project)
        flagged = self.flagged_lines(project)
        self.assertTrue(flagged)
        run("check", "--fix", ".", cwd=project, expect=1)

        diff = git("diff", "-U0", "--no-color", cwd=project)
        changed_files, current = set(), None
        for line in diff.splitlines():
            if line.startswith("--- "):
                continue
            if line.startswith("+++ "):
                current = line[len("+++ b/"):]
                changed_files.add(current)
                continue
            match = HUNK.match(line)
            if match:
                start, count = int(match[1]), int(match[2] if match[2] is not None else 1)
                old_lines = set(range(start, start + count)) if count else {start, start + 1}
                self.assertTrue(old_lines & flagged.get(current, set()),
                                f"{current}: hunk {line} touches no flagged line (flagged: {flagged.get(current)})")
        self.assertEqual(changed_files, set(flagged))

        # Re-checking finds nothing safe-fixable; fixing again changes nothing.
        after = json.loads(run("check", ".", "--output-format", "json", cwd=project).stdout)
        self.assertFalse([f for f in after if f["fix"] and f["fix"]["applicability"] == "safe"])
        before_second = snapshot(project)
        second = run("check", "--fix", ".", cwd=project)
        # Nothing fixed: the summary is a check's (as in Ruff), without "(0 fixed, ...)".
        self.assertRegex(second.stdout, rb"(?m)^Found \d+ findings \(\d+ errors, \d+ warnings\)\.$")
        self.assertEqual(before_second, snapshot(project))

    def test_diff_shows_exactly_what_fix_writes_and_writes_nothing(self):
        diffed, fixed = self.copy("diffed"), self.copy("fixed")
        untouched = snapshot(diffed)
        result = run("check", "--diff", ".", cwd=diffed, expect=1)
        self.assertEqual(untouched, snapshot(diffed))
        self.assertIn(b"--- a/src/legacy_models/exporting.py", result.stdout)
        patch = self.root / "fixes.patch"
        patch.write_bytes(result.stdout)
        subprocess.run(["patch", "-p1", "-s", "-i", str(patch)], cwd=diffed, check=True, capture_output=True)
        run("check", "--fix", ".", cwd=fixed)
        self.assertEqual(snapshot(diffed), snapshot(fixed))
        # Nothing left to fix: empty diff, exit 0.
        again = run("check", "--diff", ".", cwd=fixed, expect=0)
        self.assertEqual(again.stdout, b"")

    def test_fix_only_and_show_fixes(self):
        project = self.copy("project")
        result = run("check", "--fix-only", "--show-fixes", ".", cwd=project, expect=0)
        out = result.stdout.decode()
        self.assertRegex(out, r"^Fixed \d+ findings:\n- ")
        self.assertIn("\n- src/legacy_models/exporting.py:\n", out)
        self.assertRegex(out, r"\n    \d+ × TM201 \(export-strict-default-changed\)\n")
        self.assertNotIn("TM102", out)  # remaining findings are not reported
        quiet = run("check", "--fix-only", ".", cwd=self.copy("other"), expect=0)
        self.assertRegex(quiet.stdout.decode(), r"^Fixed \d+ findings\.\n$")

    def test_line_endings_bom_and_permissions_survive(self):
        reference, project = self.copy("reference"), self.copy("project")
        run("check", "--fix", ".", cwd=reference)
        models = Path("src/legacy_models")
        crlf_bom, crlf, executable, private = (models / "exporting.py", models / "onnx_export.py",
                                               models / "compiling.py", Path("scripts/export_all.py"))
        (project / crlf_bom).write_bytes(BOM + (project / crlf_bom).read_bytes().replace(b"\n", b"\r\n"))
        (project / crlf).write_bytes((project / crlf).read_bytes().replace(b"\n", b"\r\n"))
        os.chmod(project / executable, 0o755)
        os.chmod(project / private, 0o600)
        run("check", "--fix", "-j", "4", ".", cwd=project)

        self.assertEqual((project / crlf_bom).read_bytes(),
                         BOM + (reference / crlf_bom).read_bytes().replace(b"\n", b"\r\n"))
        self.assertEqual((project / crlf).read_bytes(), (reference / crlf).read_bytes().replace(b"\n", b"\r\n"))
        self.assertNotEqual((project / crlf).read_bytes(), (EXAMPLE / crlf).read_bytes().replace(b"\n", b"\r\n"))
        self.assertEqual(stat.S_IMODE((project / executable).stat().st_mode), 0o755)
        self.assertEqual(stat.S_IMODE((project / private).stat().st_mode), 0o600)
        self.assertEqual((project / executable).read_bytes(), (reference / executable).read_bytes())
        # No temporary file is left behind.
        self.assertFalse([p for p in project.rglob(".*torchmigrate-*")])

    def test_files_that_must_not_be_written_are_reported_and_left_alone(self):
        project = self.copy("project")
        outside = self.root / "outside.py"
        outside.write_bytes((EXAMPLE / "src/legacy_models/exporting.py").read_bytes())
        (project / "leak.py").symlink_to(outside)
        read_only = project / "src/legacy_models/compiling.py"
        os.chmod(read_only, 0o444)
        binary = project / "blob.py"
        binary.write_bytes(b"import torch\ntorch.export.export(m, (x,))\n\x00\x01")
        latin1 = project / "latin1.py"
        latin1.write_bytes(b"# caf\xe9\nimport torch\ntorch.export.export(m, (x,))\n")
        before = snapshot(project)

        result = run("check", "--fix", ".", cwd=project, expect=1)
        out, err = result.stdout.decode(), result.stderr.decode()
        self.assertIn("leak.py: symbolic link to a file outside the checked tree", err)
        self.assertEqual(outside.read_bytes(), (EXAMPLE / "src/legacy_models/exporting.py").read_bytes())
        self.assertRegex(out, r"compiling\.py:1:1: TM900 The file is read-only; its fixes were not applied")
        self.assertRegex(out, r"blob\.py:1:1: TM900 Skipped: the file contains NUL bytes")
        self.assertRegex(out, r"latin1\.py:1:1: TM900 Skipped: the file is not valid UTF-8")
        after = snapshot(project)
        for name in ("leak.py", "src/legacy_models/compiling.py", "blob.py", "latin1.py"):
            self.assertEqual(after[name], before[name], name)
        self.assertNotEqual(after["src/legacy_models/exporting.py"], before["src/legacy_models/exporting.py"])


if __name__ == "__main__":
    unittest.main()
