# SPDX-License-Identifier: MIT
"""End-to-end tests of `torchmigrate check`, `rule` and `rules`: exit codes, output formats and
fixes, on a copy of the example project and on small files."""
import json
import re
import unittest

from tm_e2e import EXAMPLE, TempTree, run

CONCISE_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TM\d{3}) (?P<fix>\[\*\] )?(?P<msg>.+)$")


class CheckExampleProject(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree(EXAMPLE)
        self.addCleanup(self.tree.cleanup)

    def findings(self, stdout):
        return [CONCISE_LINE.match(line) for line in stdout.splitlines() if CONCISE_LINE.match(line)]

    def test_reports_findings_sorted_with_exit_code_1(self):
        result = run("check", "project", cwd=self.tree.root, check_exit=1)
        findings = self.findings(result.stdout)
        self.assertGreaterEqual(len(findings), 8)
        keys = [(m["path"], int(m["line"]), int(m["col"]), m["code"]) for m in findings]
        self.assertEqual(keys, sorted(keys))
        codes = {m["code"] for m in findings}
        self.assertTrue({"TM101", "TM102", "TM201", "TM202", "TM302"} <= codes, codes)
        self.assertRegex(result.stdout, r"Found \d+ findings \(\d+ errors, \d+ warnings(, \d+ info)?\)\.")
        # The project's own `export()` helper and method calls are not flagged.
        self.assertNotIn("scripts/export_all.py", "".join(m["path"] for m in findings if m["code"] == "TM201"))

    def test_json_output_is_machine_readable(self):
        result = run("check", "project", "--output-format", "json", cwd=self.tree.root, check_exit=1)
        findings = json.loads(result.stdout)
        self.assertTrue(findings)
        for finding in findings:
            self.assertRegex(finding["code"], r"^TM\d{3}$")
            self.assertTrue(finding["filename"].startswith("project/"))
            self.assertGreaterEqual(finding["location"]["row"], 1)
            self.assertIn(finding["severity"], {"error", "warning", "info"})
        keep_old = [f for f in findings if f["code"] == "TM201" and f["fix"]]
        self.assertTrue(keep_old)
        self.assertEqual(keep_old[0]["fix"]["edits"][0]["content"], ", strict=True")
        self.assertEqual({fix["policy"] for fix in keep_old[0]["fixes"]}, {"keep-old", "adopt-new"})

    def test_fix_rewrites_files_and_is_idempotent(self):
        run("check", "project", "--fix", cwd=self.tree.root)
        exporting = (self.tree.project / "src/legacy_models/exporting.py").read_text()
        self.assertNotIn("export_for_inference", exporting)
        self.assertIn(".run_decompositions(", exporting)
        onnx = (self.tree.project / "src/legacy_models/onnx_export.py").read_text()
        # One argument per line: each added keyword goes on its own line.
        self.assertIn("        opset_version=17,\n        dynamo=False,\n    )", onnx)
        snapshot = {p: p.read_bytes() for p in self.tree.project.rglob("*.py")}
        second = run("check", "project", "--fix", cwd=self.tree.root)
        self.assertEqual(snapshot, {p: p.read_bytes() for p in self.tree.project.rglob("*.py")})
        # What remains has no fix `--fix` would apply; TM102 waits for --unsafe-fixes while 2.7 is supported.
        remaining = self.findings(second.stdout)
        self.assertFalse([m.group(0) for m in remaining if m["fix"]])
        self.assertIn("TM102", {m["code"] for m in remaining})
        run("check", "project", "--fix", "--unsafe-fixes", cwd=self.tree.root)
        models = (self.tree.project / "src/legacy_models/models.py").read_text()
        self.assertIn("guard_or_false", models)
        self.assertNotIn("definitely_", models)

    def test_diff_writes_nothing_and_exits_1(self):
        before = {p: p.read_bytes() for p in self.tree.project.rglob("*")  if p.is_file()}
        result = run("check", "project", "--diff", cwd=self.tree.root, check_exit=1)
        self.assertIn("--- a/project/src/legacy_models/exporting.py", result.stdout)
        self.assertIn("+++ b/project/src/legacy_models/exporting.py", result.stdout)
        self.assertRegex(result.stderr, r"Would fix \d+ findings")
        self.assertEqual(before, {p: p.read_bytes() for p in self.tree.project.rglob("*") if p.is_file()})

    def test_exit_zero(self):
        run("check", "project", "--exit-zero", cwd=self.tree.root, check_exit=0)

    def test_select_and_ignore(self):
        only_tm1 = self.findings(run("check", "project", "--select", "TM1", cwd=self.tree.root).stdout)
        self.assertTrue({"TM101", "TM102"} <= {m["code"] for m in only_tm1})
        self.assertEqual({m["code"][:3] for m in only_tm1}, {"TM1"})
        without = self.findings(run("check", "project", "--ignore", "TM2,TM3,TM4", cwd=self.tree.root).stdout)
        self.assertEqual({m["code"][:3] for m in without}, {"TM1"})
        specific = self.findings(run("check", "project", "--ignore", "TM2", "--extend-select", "TM201",
                                     cwd=self.tree.root).stdout)
        self.assertIn("TM201", {m["code"] for m in specific})
        self.assertNotIn("TM202", {m["code"] for m in specific})

    def test_policy_adopt_new(self):
        run("check", "project", "--select", "TM201", "--fix", "--unsafe-fixes", "--policy", "TM201=adopt-new",
            cwd=self.tree.root, check_exit=0)
        exporting = (self.tree.project / "src/legacy_models/exporting.py").read_text()
        self.assertIn("strict=False", exporting)


class CheckSmallFiles(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def test_clean_file_exits_0(self):
        self.tree.write("ok.py", "import torch\nep = torch.export.export(m, (x,), strict=True)\n")
        result = run("check", "ok.py", cwd=self.tree.root, check_exit=0)
        self.assertIn("All checks passed!", result.stdout)

    def test_syntax_error_is_reported_and_does_not_hide_findings(self):
        self.tree.write("broken.py", "import torch\ndef broken(:\n    pass\nep = torch.export.export(m, (x,))\n")
        result = run("check", "broken.py", cwd=self.tree.root, check_exit=1)
        self.assertIn("TM901", result.stdout)
        self.assertIn("broken.py:4:6: TM201", result.stdout)

    def test_absurdly_deep_nesting_is_skipped_not_a_crash(self):
        call = "torch.export.export(m, (x,))"
        self.tree.write("deep.py", "import torch\ny = " + "(" * 20000 + call + ")" * 20000 + "\n")
        self.tree.write("ok.py", f"import torch\n{call}\n")
        result = run("check", "deep.py", "ok.py", "-j", "1", cwd=self.tree.root, check_exit=1)
        self.assertIn("deep.py:1:1: TM901 Skipped: the code nests more than", result.stdout)
        self.assertIn("ok.py:2:1: TM201", result.stdout)

    def test_unreadable_or_missing_paths(self):
        result = run("check", "missing.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("no such file or directory", result.stderr)

    def test_usage_errors_exit_2(self):
        self.tree.write("ok.py", "x = 1\n")
        self.assertIn("unknown rule selector", run("check", "ok.py", "--select", "TM99", cwd=self.tree.root,
                                                   check_exit=2).stderr)
        run("check", "ok.py", "--no-such-flag", cwd=self.tree.root, check_exit=2)
        run("check", "ok.py", "--output-format", "xml", cwd=self.tree.root, check_exit=2)
        self.assertIn("keep-old or adopt-new", run("check", "ok.py", "--policy", "TM201=newest",
                                                   cwd=self.tree.root, check_exit=2).stderr)
        run("check", "ok.py", "--min-torch", "two", cwd=self.tree.root, check_exit=2)

    def test_look_alikes_are_not_flagged(self):
        self.tree.write("mine.py", (
            "from .exporting import export\n"
            "def definitely_true(x):\n    return bool(x)\n"
            "class Saver:\n    def export(self, m):\n        return m\n"
            "Saver().export(1)\nexport(1)\ndefinitely_true(1)\n"
            "s = 'torch.export.export(m, args)'  # torch.export.export(m)\n"))
        run("check", "mine.py", cwd=self.tree.root, check_exit=0)


class RuleDocs(unittest.TestCase):
    def test_rule_prints_docs(self):
        result = run("rule", "TM101", check_exit=0)
        for heading in ("# export-for-inference-removed (TM101)", "## What it does", "## Why is this bad?",
                        "## Example", "## Fix safety", "## Limitations", "pytorch/pull/149078"):
            self.assertIn(heading, result.stdout)
        self.assertIn("# export-strict-default-changed (TM201)", run("rule", "export-strict-default-changed").stdout)
        self.assertIn("unknown rule", run("rule", "TM999", check_exit=2).stderr)

    def test_rules_lists_every_rule(self):
        table = run("rules", check_exit=0).stdout
        for code in ("TM101", "TM102", "TM201", "TM202", "TM302"):
            self.assertIn(code, table)
        listed = json.loads(run("rules", "--output-format", "json", check_exit=0).stdout)
        self.assertEqual([r["code"] for r in listed], sorted(r["code"] for r in listed))

    def test_rules_says_the_release_of_each_rule(self):
        table = run("rules", check_exit=0).stdout.splitlines()
        self.assertRegex(table[0], r"^CODE +NAME +SINCE +SEVERITY")
        self.assertRegex(next(line for line in table if line.startswith("TM201 ")), r"^TM201 +\S+ +2\.8 ")
        self.assertRegex(next(line for line in table if line.startswith("TM207 ")), r"^TM207 +\S+ +2\.9 ")
        listed = {r["code"]: r for r in json.loads(run("rules", "--output-format", "json", check_exit=0).stdout)}
        self.assertEqual((listed["TM308"]["since"], listed["TM308"]["removed_in"]), ("2.9", "2.11"))
        self.assertIsNone(listed["TM201"]["removed_in"])
        self.assertIn("| [TM207](TM207-onnx-dynamo-default.md) | onnx-dynamo-default | 2.9 |",
                      run("rules", "--output-format", "markdown", check_exit=0).stdout)


if __name__ == "__main__":
    unittest.main()
