# SPDX-License-Identifier: MIT
"""Jupyter notebooks: findings placed in cells, fixes that touch only the changed cells' sources,
fixed notebooks that still load (JSON, and the nbformat 4 schema), CI formats pointing at the
notebook's JSON lines, configuration applied to notebooks. Fixtures: tests/fixtures/notebooks/."""
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from lsp_client import LspClient
from tm_e2e import SOURCE_DIR, run

NOTEBOOKS = SOURCE_DIR / "tests" / "fixtures" / "notebooks"

# Validates a notebook file against the nbformat 4 schema that the nbformat package ships.
VALIDATE = "import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))"


def nbformat_python():
    """An interpreter that can import nbformat: this one, or Debian's (python3-nbformat)."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and subprocess.run([candidate, "-c", "import nbformat"], capture_output=True).returncode == 0:
            return candidate
    raise AssertionError("nbformat is not importable: install python3-nbformat (scripts/bootstrap.sh does)")


def source_blocks(lines):
    """Indices of the lines inside (or opening/closing) a `"source": [...]` or `"source": "..."` value."""
    inside = set()
    depth = None
    for index, line in enumerate(lines):
        if depth is None and re.match(r'\s*"source":', line):
            inside.add(index)
            if line.rstrip("\r\n").endswith("["):
                depth = len(line) - len(line.lstrip())
            continue
        if depth is not None:
            inside.add(index)
            stripped = line.strip()
            if stripped in ("]", "],") and len(line) - len(line.lstrip()) == depth:
                depth = None
    return inside


def without_code_sources(document):
    for cell in document["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = None
    return document


class NotebookFixtures(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="torchmigrate-notebooks-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        # A project that pins torch: without a pin, fixes that depend on the range are unsafe.
        (self.root / "requirements.txt").write_text("torch>=2.7,<2.8\n")

    def copy(self, name):
        shutil.copy(NOTEBOOKS / name, self.root / name)
        return self.root / name

    def fixtures(self):
        found = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
        self.assertGreaterEqual(len(found), 4)
        return found

    def test_concise_output_places_findings_in_cells(self):
        for name in self.fixtures():
            with self.subTest(name):
                self.copy(name)
                result = run("check", "--isolated", "--no-cache", name, cwd=self.root)
                expected = (NOTEBOOKS / (name + ".expected")).read_text()
                self.assertEqual(expected, result.stdout, result.stderr)
                self.assertEqual(0 if expected.startswith("All checks passed") else 1, result.returncode)

    def test_fix_rewrites_only_changed_sources(self):
        python = nbformat_python()
        fixed_names = [name for name in self.fixtures() if (NOTEBOOKS / (name + ".fixed")).exists()]
        self.assertGreaterEqual(len(fixed_names), 2)
        for name in fixed_names:
            with self.subTest(name):
                path = self.copy(name)
                original = path.read_bytes()
                run("check", "--isolated", "--no-cache", "--fix", name, cwd=self.root)
                fixed = path.read_bytes()
                self.assertEqual((NOTEBOOKS / (name + ".fixed")).read_bytes(), fixed)
                self.assertNotEqual(original, fixed)
                # Still a notebook: JSON, and valid against the nbformat 4 schema.
                document = json.loads(fixed)
                validated = subprocess.run([python, "-c", VALIDATE, str(path)], capture_output=True, text=True)
                self.assertEqual(0, validated.returncode, validated.stderr)
                # Nothing but code cells' sources changed, in value ...
                self.assertEqual(without_code_sources(json.loads(original)), without_code_sources(document))
                # ... and in bytes: every changed line lies in a source value.
                before = original.decode().splitlines(keepends=True)
                after = fixed.decode().splitlines(keepends=True)
                in_before, in_after = source_blocks(before), source_blocks(after)
                for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
                    if tag == "equal":
                        continue
                    self.assertTrue(set(range(a1, a2)) <= in_before, before[a1:a2])
                    self.assertTrue(set(range(b1, b2)) <= in_after, after[b1:b2])
                self.assertEqual(original.count(b"\r\n") > 0, fixed.count(b"\r\n") > 0)
                self.assertEqual(original.endswith(b"\n"), fixed.endswith(b"\n"))
                # Fixing again changes nothing.
                run("check", "--isolated", "--no-cache", "--fix", name, cwd=self.root)
                self.assertEqual(fixed, path.read_bytes())

    def test_diff_shows_the_json_change_and_writes_nothing(self):
        path = self.copy("several_cells.ipynb")
        original = path.read_bytes()
        result = run("check", "--isolated", "--no-cache", "--diff", "several_cells.ipynb", cwd=self.root)
        self.assertIn('+    "    strict_program = te.export(model, (x,), strict=True)"', result.stdout)
        self.assertEqual(original, path.read_bytes())

    def test_malformed_notebook_is_reported_never_fixed(self):
        path = self.copy("malformed.ipynb")
        original = path.read_bytes()
        result = run("check", "--isolated", "--no-cache", "--fix", "malformed.ipynb", cwd=self.root)
        self.assertIn("TM900", result.stdout)
        self.assertIn("Malformed notebook", result.stdout)
        self.assertEqual(original, path.read_bytes())


class NotebookFormats(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="torchmigrate-notebooks-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        shutil.copy(NOTEBOOKS / "several_cells.ipynb", self.root / "nb.ipynb")
        self.lines = (self.root / "nb.ipynb").read_text().splitlines()

    def json_line_of(self, text):
        """1-based line of the notebook's JSON holding `text`."""
        return next(i + 1 for i, line in enumerate(self.lines) if text in line)

    def test_json_gives_cell_and_line_within_the_cell(self):
        result = run("check", "--isolated", "--no-cache", "--output-format", "json", "nb.ipynb", cwd=self.root)
        findings = json.loads(result.stdout)
        strict = next(f for f in findings if f["code"] == "TM201")
        self.assertEqual(4, strict["cell"])
        self.assertEqual({"row": 5, "column": 22}, strict["location"])
        self.assertEqual(5, strict["noqa_row"])
        edit = strict["fix"]["edits"][0]
        self.assertEqual(5, edit["location"]["row"])
        removed = next(f for f in findings if f["code"] == "TM101")
        self.assertEqual(3, removed["cell"])
        self.assertEqual(2, removed["location"]["row"])

    def test_ci_formats_point_at_the_json_line(self):
        line = self.json_line_of("strict_program = te.export(model")
        github = run("check", "--isolated", "--no-cache", "--output-format", "github", "nb.ipynb", cwd=self.root).stdout
        self.assertRegex(github, rf"file=nb\.ipynb,line={line},col=\d+,.*TM201")
        sarif = json.loads(run("check", "--isolated", "--no-cache", "--output-format", "sarif", "nb.ipynb",
                               cwd=self.root).stdout)
        results = sarif["runs"][0]["results"]
        tm201 = next(r for r in results if r["ruleId"] == "TM201")
        self.assertEqual(line, tm201["locations"][0]["physicalLocation"]["region"]["startLine"])
        self.assertNotIn("fixes", tm201)
        gitlab = json.loads(run("check", "--isolated", "--no-cache", "--output-format", "gitlab", "nb.ipynb",
                                cwd=self.root).stdout)
        issue = next(i for i in gitlab if i["check_name"].startswith("TM201"))
        self.assertEqual(line, issue["location"]["lines"]["begin"])

    def test_per_file_ignores_and_excludes_apply(self):
        (self.root / "pyproject.toml").write_text(
            '[tool.torchmigrate]\nper-file-ignores = { "*.ipynb" = ["TM2"] }\n')
        result = run("check", "--no-cache", "nb.ipynb", cwd=self.root)
        self.assertNotIn("TM201", result.stdout)
        self.assertIn("TM101", result.stdout)
        excluded = run("check", "--no-cache", "--extend-exclude", "*.ipynb", ".", cwd=self.root)
        self.assertNotIn("nb.ipynb", excluded.stdout)

    def test_directory_walk_finds_notebooks(self):
        (self.root / "pkg").mkdir()
        shutil.move(self.root / "nb.ipynb", self.root / "pkg" / "nb.ipynb")
        result = run("check", "--isolated", "--no-cache", ".", cwd=self.root)
        self.assertIn("pkg/nb.ipynb:cell 4:5:22: TM201", result.stdout)


class NotebookInTheServer(unittest.TestCase):
    def test_notebook_opened_as_a_file_matches_check(self):
        root = Path(tempfile.mkdtemp(prefix="torchmigrate-notebooks-")).resolve()
        self.addCleanup(shutil.rmtree, root, True)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        (root / "requirements.txt").write_text("torch>=2.7,<2.8\n")
        for name in ("nb.ipynb", "fixed.ipynb"):
            shutil.copy(NOTEBOOKS / "several_cells.ipynb", root / name)
        run("check", "--isolated", "--no-cache", "--fix", "fixed.ipynb", cwd=root)
        sarif = json.loads(run("check", "--isolated", "--no-cache", "--output-format", "sarif", "nb.ipynb",
                               cwd=root).stdout)
        expected = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"] - 1,
                           r["locations"][0]["physicalLocation"]["region"]["startColumn"] - 1)
                          for r in sarif["runs"][0]["results"])
        client = LspClient(root)
        try:
            path = root / "nb.ipynb"
            client.open(path)
            found = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
                           for d in client.diagnostics(path))
            self.assertEqual(expected, found)
            self.assertEqual((root / "fixed.ipynb").read_text(), client.fix_all(path))
        finally:
            client.close()


if __name__ == "__main__":
    unittest.main()
