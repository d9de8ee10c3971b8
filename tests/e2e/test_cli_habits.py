# SPDX-License-Identifier: MIT
"""What a Ruff user types: --write-baseline as a command of its own, --statistics in text or
JSON only, lower-case rule codes, and suggestions for a mistyped subcommand or option."""
import json
import unittest

from test_cli_options import SOURCE
from tm_e2e import TempTree, run


class RuffHabits(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("a.py", SOURCE)

    def test_write_baseline_writes_and_exits_0_without_a_report(self):
        result = run("check", "a.py", "--extend-select", "TM305", "--write-baseline", "baseline.json",
                     cwd=self.tree.root, check_exit=0)
        self.assertEqual(result.stdout, "")
        self.assertIn("wrote 2 findings to the baseline baseline.json", result.stderr)
        recorded = json.loads((self.tree.root / "baseline.json").read_text())["findings"]
        self.assertEqual(sorted(entry["code"] for entry in recorded), ["TM201", "TM305"])
        # The TM1xx finding is never baselined, so it still fails the next run.
        again = run("check", "a.py", "--extend-select", "TM305", "--baseline", "baseline.json", cwd=self.tree.root,
                    check_exit=1)
        self.assertEqual([line.split()[1] for line in again.stdout.splitlines() if line.startswith("a.py:")],
                         ["TM102", "TM102"])

    def test_statistics_are_text_or_json_never_silently_text(self):
        text = run("check", "a.py", "--statistics", cwd=self.tree.root, check_exit=1).stdout
        self.assertRegex(text, r"(?m)^2\s+TM102\s")
        rows = json.loads(run("check", "a.py", "--statistics", "--output-format", "json", cwd=self.tree.root,
                              check_exit=1).stdout)
        self.assertEqual({row["code"] for row in rows}, {"TM102", "TM201"})
        for format_name in ("sarif", "gitlab", "github", "junit", "json-lines"):
            with self.subTest(format=format_name):
                result = run("check", "a.py", "--statistics", "--output-format", format_name, cwd=self.tree.root,
                             check_exit=2)
                self.assertEqual(result.stdout, "")
                self.assertIn(f"--statistics prints text or json, not --output-format {format_name}", result.stderr)

    def test_rule_codes_in_any_case(self):
        upper = run("rule", "TM101", check_exit=0).stdout
        self.assertEqual(run("rule", "tm101", check_exit=0).stdout, upper)
        self.assertEqual(run("rule", "Tm101", "--output-format", "json", check_exit=0).stdout,
                         run("rule", "TM101", "--output-format", "json", check_exit=0).stdout)
        self.assertIn("unknown rule `tm999`", run("rule", "tm999", check_exit=2).stderr)

    def test_unknown_subcommand_is_named_with_a_suggestion(self):
        result = run("chek", "a.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("unknown command `chek`; did you mean `check`?", result.stderr)
        self.assertNotIn("A subcommand is required", result.stderr)
        far = run("frobnicate", check_exit=2).stderr
        self.assertIn("unknown command `frobnicate`", far)
        self.assertNotIn("did you mean", far)

    def test_mistyped_option_gets_a_suggestion(self):
        for typed, meant in [("--selct", "--select"), ("--extend-selct", "--extend-select"), ("--fxi", "--fix"),
                             ("--output-formt=json", "--output-format")]:
            with self.subTest(typed=typed):
                result = run("check", typed, "TM1", "a.py", cwd=self.tree.root, check_exit=2)
                self.assertIn(f"unknown option `{typed.split('=')[0]}`; did you mean `{meant}`?", result.stderr)
        self.assertIn("did you mean `--output-format`?", run("rule", "TM101", "--output-formta", "json",
                                                             check_exit=2).stderr)
        # A value that looks like nothing known is a value, not an unknown option.
        run("check", "--select", "TM1", "a.py", cwd=self.tree.root, check_exit=1)
        run("check", "a.py", "-j1", cwd=self.tree.root, check_exit=1)
        run("--version", check_exit=0)
        run("check", "--help", check_exit=0)


if __name__ == "__main__":
    unittest.main()

    def test_ruff_short_flags_and_extend_per_file_ignores(self):
        # -e is --exit-zero and -n --no-cache, as in Ruff.
        self.assertEqual(run("check", "a.py", "-e", "-n", cwd=self.tree.root, check_exit=0).stdout,
                         run("check", "a.py", "--exit-zero", "--no-cache", cwd=self.tree.root, check_exit=0).stdout)
        # --extend-per-file-ignores adds to the configuration's, as --per-file-ignores always does.
        extended = run("check", "a.py", "--extend-per-file-ignores", "a.py:TM102", "--output-format", "pylint",
                       cwd=self.tree.root, check_exit=1).stdout
        self.assertEqual(extended.splitlines(), [
            "a.py:4: [TM201] `torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); "
            "pass `strict=` explicitly"])
        self.assertEqual(extended, run("check", "a.py", "--per-file-ignores", "a.py:TM102", "--output-format",
                                       "pylint", cwd=self.tree.root, check_exit=1).stdout)

    def test_grouped_and_rdjson_from_the_command_line(self):
        grouped = run("check", "a.py", "--output-format", "grouped", cwd=self.tree.root, check_exit=1).stdout
        lines = grouped.splitlines()
        self.assertEqual(lines[0], "a.py:")
        self.assertRegex(lines[1], r"^  2:1 TM102 ")
        self.assertRegex(lines[2], r"^  4:6 TM201 \[\*\] `torch\.export\.export` defaults")
        self.assertRegex(lines[3], r"^  5:4 TM102 ")
        self.assertEqual(lines[4], "")
        self.assertTrue(lines[5].startswith("Found 3 findings"), lines)
        result = json.loads(run("check", "a.py", "--output-format", "rdjson", cwd=self.tree.root,
                                check_exit=1).stdout)
        self.assertEqual(result["source"], {"name": "torchmigrate"})
        self.assertEqual([d["code"]["value"] for d in result["diagnostics"]], ["TM102", "TM201", "TM102"])
        self.assertEqual(result["diagnostics"][1]["suggestions"][0]["text"], ", strict=True")
