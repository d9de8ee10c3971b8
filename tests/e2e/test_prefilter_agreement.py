# SPDX-License-Identifier: MIT
"""The trigger prefilter never drops a finding: every fixture (every language, hidden files
included) and the example project report the same findings with the prefilter off
(TORCHMIGRATE_NO_PREFILTER=1: every enabled rule runs on every file) as with it on."""
import json
import os
import unittest
from collections import Counter

from tm_e2e import SOURCE_DIR, TempTree, run

# Parse notes: with the prefilter off every file is parsed, so more syntax errors are reported.
PARSE_NOTES = {"TM900", "TM901"}


def roots():
    """Each fixture (a project of its own) and the example project."""
    fixtures = SOURCE_DIR / "tests" / "fixtures"
    out = [SOURCE_DIR / "examples" / "legacy-project", fixtures / "notebooks"]
    for language in ("python", "cxx", "build", "projects"):
        out += sorted(p for p in (fixtures / language).iterdir() if p.is_dir())
    return out


def report(files, selection, prefilter):
    env = dict(os.environ)
    env.pop("TORCHMIGRATE_NO_PREFILTER", None)
    if not prefilter:
        env["TORCHMIGRATE_NO_PREFILTER"] = "1"
    result = run("check", "--no-cache", "--no-respect-gitignore", "--output-format", "json", *selection, *files,
                 env=env)
    if result.returncode == 2 and "error: target-version" in result.stderr:
        # A fixture whose configuration is refused on purpose: the same refusal either way.
        return Counter([result.stderr]), Counter()
    if result.returncode not in (0, 1):
        raise AssertionError(f"exit {result.returncode}\n{result.stderr}")
    items = [json.dumps(item, sort_keys=True) for item in json.loads(result.stdout)]
    findings = Counter(item for item in items if json.loads(item)["code"] not in PARSE_NOTES)
    notes = Counter(item for item in items if json.loads(item)["code"] in PARSE_NOTES)
    return findings, notes


class PrefilterAgreementTest(unittest.TestCase):
    def test_same_findings_with_and_without_the_prefilter(self):
        checked = 0
        for root in roots():
            files = sorted(str(p) for p in root.rglob("*") if p.is_file())
            for selection in (["--select", "ALL"], []):
                with self.subTest(root=str(root.relative_to(SOURCE_DIR)), selection=selection):
                    on, on_notes = report(files, selection, prefilter=True)
                    off, off_notes = report(files, selection, prefilter=False)
                    self.assertEqual(on, off)
                    self.assertEqual(on_notes - off_notes, Counter())
                    checked += sum(off.values())
        # The comparison is not vacuous: the fixtures hold findings of every kind.
        self.assertGreater(checked, 100)

    def test_the_hook_turns_the_prefilter_off(self):
        # A syntax error in a file no rule's triggers match is reported only when every file is parsed.
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        path = tree.write("broken.py", "def broken(:\n    return 1\n")
        on, on_notes = report([str(path)], ["--select", "ALL"], prefilter=True)
        off, off_notes = report([str(path)], ["--select", "ALL"], prefilter=False)
        self.assertEqual(sum(on_notes.values()), 0)
        self.assertEqual(sum(off_notes.values()), 1)


if __name__ == "__main__":
    unittest.main()
