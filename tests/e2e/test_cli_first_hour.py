# SPDX-License-Identifier: MIT
"""End-to-end tests of what a Ruff user meets in the first hour: a quiet stderr on a tree of many
projects, a mistyped or empty path that does not pass silently, the file-problem codes (TM900-TM902)
that selection, per-file ignores, noqa and `rule` accept, and Ruff's command-line habits."""
import json
import unittest

from tm_e2e import TempTree, run

EXPORT = "import torch\n\nep = torch.export.export(model, (x,))\n"
# A syntax error is reported in a file the rules look at (here for TM201, which the tests ignore).
BROKEN = "import torch\ndef f(:\n    pass\nep = torch.export.export(m, (x,))\n"


class ContextLines(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        # Five projects, each with one torch requirement that cannot be read: ten context lines
        # before the default run counted them on its one line.
        for name in ("a", "b", "c", "d", "e"):
            self.tree.write(f"{name}/requirements.txt", "torch>=2.7\ntorch==latest\n")
            self.tree.write(f"{name}/m.py", EXPORT)

    def test_a_default_run_prints_one_context_line(self):
        result = run("check", ".", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stderr.splitlines(), [
            "torchmigrate: 5 projects, supported torch >= 2.7 (5); target torch 2.8 (-v names each project); "
            "5 torch pins could not be read (-v lists them)"])

    def test_verbose_lists_each_project_and_each_note(self):
        result = run("check", "-v", ".", cwd=self.tree.root, check_exit=1)
        self.assertIn("torchmigrate: note: a/requirements.txt:2: cannot read the torch requirement `torch==latest`",
                      result.stderr)
        self.assertIn("torchmigrate: e: supported torch >= 2.7 (from e/requirements.txt:1)", result.stderr)

    def test_quiet_and_machine_readable_print_no_context_line(self):
        self.assertEqual(run("check", "-q", ".", cwd=self.tree.root, check_exit=1).stderr, "")
        self.assertEqual(run("check", "--output-format", "json", ".", cwd=self.tree.root, check_exit=1).stderr, "")

    def test_one_project_counts_its_unread_pins_on_its_line(self):
        result = run("check", "a", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stderr.splitlines(), [
            "torchmigrate: supported torch >= 2.7 (from a/requirements.txt:1); target torch 2.8; "
            "1 torch pin could not be read (-v lists them)"])


class NothingToCheck(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def test_a_directory_without_files_to_check_passes_with_a_warning(self):
        self.tree.write("docs/index.md", "# docs\n")
        result = run("check", "docs", cwd=self.tree.root, check_exit=0)
        self.assertIn("torchmigrate: warning: No Python, C/C++ or build files found under the given path(s)\n",
                      result.stderr)
        self.assertEqual(run("check", "-s", "docs", cwd=self.tree.root, check_exit=0).stderr, "")

    def test_a_path_that_does_not_exist_is_an_error_even_beside_one_that_does(self):
        self.tree.write("m.py", EXPORT)
        alone = run("check", "srcc", cwd=self.tree.root, check_exit=2)
        self.assertIn("torchmigrate: error: srcc: no such file or directory", alone.stderr)
        beside = run("check", "srcc", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("torchmigrate: error: srcc: no such file or directory", beside.stderr)
        self.assertIn("m.py:3:6: TM201", beside.stdout)  # the other path is still checked
        self.assertNotIn("No Python", beside.stderr)

    def test_excluded_files_named_one_by_one_pass_silently(self):
        self.tree.write("torchmigrate.toml", 'extend-exclude = ["gen"]\n')
        self.tree.write("gen/m.py", EXPORT)
        result = run("check", "--force-exclude", "gen/m.py", cwd=self.tree.root, check_exit=0)
        self.assertNotIn("No Python", result.stderr)


class FileProblemCodes(unittest.TestCase):
    """TM900-TM902 are reported like findings, so they must be selectable like them."""

    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("broken.py", BROKEN)
        self.tree.write("blob.py", "x = 1\0\n")

    def codes(self, *args, exit_code=1):
        """The file-problem codes reported; the file with a syntax error also has a TM201, so the
        exit code is 1 unless TM201 is left out."""
        result = run("check", "--output-format", "json", *args, ".", cwd=self.tree.root, check_exit=exit_code)
        return sorted(finding["code"] for finding in json.loads(result.stdout) if finding["code"].startswith("TM9"))

    def test_they_are_reported_by_default(self):
        self.assertEqual(self.codes(exit_code=1), ["TM900", "TM901"])

    def test_ignore_and_select_take_them(self):
        self.assertEqual(self.codes("--ignore", "TM901", exit_code=1), ["TM900"])
        self.assertEqual(self.codes("--ignore", "TM9"), [])
        self.assertEqual(self.codes("--ignore", "parse-error,io-error"), [])
        # They count for the exit code, and ignoring them takes them out of it.
        run("check", "blob.py", cwd=self.tree.root, check_exit=1)
        run("check", "--ignore", "TM900", "blob.py", cwd=self.tree.root, check_exit=0)
        self.assertEqual(self.codes("--select", "TM900"), ["TM900"])
        # A selection that does not name them keeps them: it must not hide unchecked files.
        self.assertEqual(self.codes("--select", "TM201"), ["TM900", "TM901"])

    def test_per_file_ignores_take_them(self):
        self.assertEqual(self.codes("--per-file-ignores", "broken.py:TM901"), ["TM900"])
        self.tree.write("torchmigrate.toml", 'per-file-ignores = { "blob.py" = ["TM900"], "broken.py" = ["TM901"] }\n')
        self.assertEqual(self.codes(), [])

    def test_noqa_takes_them_by_code_not_bare(self):
        self.tree.write("blob.py", "x = 1\n")
        self.tree.write("broken.py", BROKEN.replace("(:", "(:  # noqa"))
        self.assertEqual(self.codes(exit_code=1), ["TM901"])
        self.tree.write("broken.py", BROKEN.replace("(:", "(:  # noqa: TM901"))
        self.assertEqual(self.codes(), [])
        self.tree.write("broken.py", "# torchmigrate: noqa: TM901\n" + BROKEN)
        self.assertEqual(self.codes(), [])

    def test_rule_explains_them(self):
        out = run("rule", "TM901", check_exit=0).stdout
        self.assertTrue(out.startswith("# parse-error (TM901)\n"), out)
        self.assertIn("## Selecting and suppressing", out)
        self.assertIn("io-error", run("rule", "tm900", check_exit=0).stdout)
        rule = json.loads(run("rule", "internal-error", "--output-format", "json", check_exit=0).stdout)
        self.assertEqual((rule["code"], rule["kind"]), ("TM902", "file-problem"))


class RuffHabits(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("requirements.txt", "torch>=2.7\n")
        self.tree.write("m.py", EXPORT)

    def codes(self, *args, exit_code=1):
        result = run("check", "--output-format", "json", *args, "m.py", cwd=self.tree.root, check_exit=exit_code)
        return sorted(finding["code"] for finding in json.loads(result.stdout))

    def test_selectors_with_spaces_and_in_lower_case(self):
        self.assertEqual(self.codes("--select", "TM101, TM201"), ["TM201"])
        self.assertEqual(self.codes("--select", "tm201"), ["TM201"])
        self.assertEqual(self.codes("--ignore", "tm2", exit_code=0), [])
        self.tree.write("torchmigrate.toml", 'ignore = ["tm201 "]\n')
        self.assertEqual(self.codes(exit_code=0), [])

    def test_no_arguments_print_the_help_and_exit_2(self):
        result = run(check_exit=2)
        self.assertIn("check", result.stderr)
        self.assertIn("Usage: torchmigrate", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_a_mistyped_output_format_gets_a_suggestion(self):
        result = run("check", "--output-format", "jsn", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("unknown output format `jsn`; did you mean `json`?", result.stderr)

    def test_config_takes_inline_settings(self):
        self.assertEqual(self.codes("--config", "ignore = ['TM201']", exit_code=0), [])
        # Over the configuration file's settings, as Ruff's.
        self.tree.write("torchmigrate.toml", 'select = ["TM1"]\n')
        self.assertEqual(self.codes(exit_code=0), [])
        self.assertEqual(self.codes("--config", 'select = ["TM2"]'), ["TM201"])
        self.assertEqual(self.codes("--config", "torchmigrate.toml", "--config", "extend-select = ['TM2']"), ["TM201"])
        bad = run("check", "--config", "select = TM2", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("--config", bad.stderr)
        self.assertIn("KEY = VALUE", bad.stderr)
        unknown = run("check", "--config", "selct = ['TM2']", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("unknown key `selct`", unknown.stderr)

    def test_ignore_noqa(self):
        self.tree.write("m.py", EXPORT.rstrip("\n") + "  # noqa: TM201\n")
        self.assertEqual(self.codes(exit_code=0), [])
        self.assertEqual(self.codes("--ignore-noqa"), ["TM201"])

    def test_extend_fixable_wins_over_a_less_specific_unfixable(self):
        args = ("check", "--diff", "--unsafe-fixes", "--unfixable", "TM2", "m.py")
        self.assertIn("No findings would be fixed", run(*args, cwd=self.tree.root, check_exit=0).stderr)
        fixed = run(*args, "--extend-fixable", "TM201", cwd=self.tree.root, check_exit=1)
        self.assertIn("Would fix 1 finding.", fixed.stderr)

    def test_no_fix_overrides_fix(self):
        run("check", "--fix", "--unsafe-fixes", "--no-fix", "m.py", cwd=self.tree.root, check_exit=1)
        self.assertEqual((self.tree.root / "m.py").read_text(), EXPORT)

    def test_min_torch_with_a_patch_is_refused_with_what_to_write(self):
        result = run("check", "--min-torch", "2.8.1", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("--min-torch: `2.8.1` names a patch release; write `2.8`", result.stderr)
        self.tree.write("torchmigrate.toml", 'min-torch = "2.8.1"\n')
        result = run("check", "m.py", cwd=self.tree.root, check_exit=2)
        self.assertIn("torchmigrate.toml:1:13: `min-torch` `2.8.1` names a patch release; write `2.8`", result.stderr)


if __name__ == "__main__":
    unittest.main()
