# SPDX-License-Identifier: MIT
"""`check -` reads one file from standard input, as editors, formatters and review bots pipe it:
its settings and project are those of `--stdin-filename`, and `--fix` prints the fixed text."""
import unittest

from tm_e2e import TempTree, run

SOURCE = "import torch\nep = torch.export.export(model, (x,))\n"
FIXED = "import torch\nep = torch.export.export(model, (x,), strict=True)\n"


class StandardInput(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("pkg/requirements.txt", "torch>=2.5,<2.8\n")
        self.tree.write("pkg/torchmigrate.toml", '[per-file-ignores]\n"generated/**" = ["TM201"]\n')

    def test_the_report_names_the_stdin_filename_and_matches_the_file_on_disk(self):
        self.tree.write("pkg/model.py", SOURCE)
        on_disk = run("check", "--no-cache", "pkg/model.py", cwd=self.tree.root, check_exit=1)
        piped = run("check", "-", "--stdin-filename", "pkg/model.py", cwd=self.tree.root, input=SOURCE, check_exit=1)
        self.assertEqual(piped.stdout, on_disk.stdout)
        self.assertIn("pkg/model.py:2:", piped.stdout)
        self.assertIn("from pkg/requirements.txt", piped.stderr)  # the project of that path

    def test_settings_come_from_the_named_path(self):
        result = run("check", "-", "--stdin-filename", "pkg/generated/model.py", cwd=self.tree.root, input=SOURCE,
                     check_exit=0)
        self.assertIn("All checks passed!", result.stdout)

    def test_fix_prints_the_fixed_text_and_reports_on_stderr(self):
        result = run("check", "--fix", "-", "--stdin-filename", "pkg/model.py", cwd=self.tree.root, input=SOURCE,
                     check_exit=0)
        self.assertEqual(result.stdout, FIXED)
        self.assertIn("Found 1 finding (1 fixed, 0 remaining)", result.stderr)
        self.assertFalse((self.tree.root / "pkg/model.py").exists())  # nothing written

    def test_diff_prints_a_diff_of_the_named_path(self):
        result = run("check", "--diff", "-", "--stdin-filename", "pkg/model.py", cwd=self.tree.root, input=SOURCE,
                     check_exit=1)
        self.assertIn("+++ b/pkg/model.py", result.stdout)
        self.assertIn("strict=True", result.stdout)

    def test_an_excluded_name_passes_the_text_through(self):
        (self.tree.root / "pkg/torchmigrate.toml").write_text('exclude = ["vendored"]\n')
        result = run("check", "--fix", "--force-exclude", "-", "--stdin-filename", "pkg/vendored/m.py",
                     cwd=self.tree.root, input=SOURCE, check_exit=0)
        self.assertEqual(result.stdout, SOURCE)

    def test_without_a_name_the_input_is_python_called_dash(self):
        result = run("check", "-", cwd=self.tree.root, input=SOURCE, check_exit=1)
        self.assertIn("-:2:", result.stdout)

    def test_stdin_filename_alone_reads_standard_input(self):
        result = run("check", "--stdin-filename", "pkg/model.py", cwd=self.tree.root, input=SOURCE, check_exit=1)
        self.assertIn("pkg/model.py:2:", result.stdout)

    def test_misuse_is_a_usage_error(self):
        for args in (["-", "pkg"], ["-", "--add-noqa"], ["-", "--shard", "2/2"]):
            with self.subTest(args=args):
                run("check", *args, cwd=self.tree.root, input=SOURCE, check_exit=2)

    def test_stdin_filename_wins_over_paths_with_a_warning(self):
        # As in Ruff: editors pass --stdin-filename together with the file's path.
        result = run("check", "pkg", "--stdin-filename", "pkg/model.py", cwd=self.tree.root, input=SOURCE,
                     check_exit=1)
        self.assertIn("ignoring `pkg` in favour of standard input", result.stderr)
        self.assertIn("pkg/model.py:2:", result.stdout)


if __name__ == "__main__":
    unittest.main()
