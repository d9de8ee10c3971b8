# SPDX-License-Identifier: MIT
"""`-v` names each project's directory, torch range and the configuration that applied there
(with what it extends), and ends with the time of each phase; without it, none of that."""
import re
import unittest

from tm_e2e import TempTree, run

SOURCE = "import torch\nep = torch.export.export(model, (x,))\n"


class Verbose(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("base.toml", "extend-select = [\"TM305\"]\n")
        self.tree.write("a/requirements.txt", "torch>=2.6\n")
        self.tree.write("a/torchmigrate.toml", "extend = \"../base.toml\"\n")
        self.tree.write("a/m.py", SOURCE)
        self.tree.write("b/requirements.txt", "torch>=2.7,<2.8\n")
        self.tree.write("b/m.py", SOURCE)

    def test_verbose_names_configuration_per_project_and_phase_times(self):
        result = run("check", "-v", "--no-cache", "a", "b", cwd=self.tree.root, check_exit=1)
        self.assertIn("a: supported torch >= 2.6 (from a/requirements.txt:1); target torch 2.8; configuration: a/torchmigrate.toml "
                      "(extends base.toml)", result.stderr)
        self.assertIn("b: supported torch 2.7 (from b/requirements.txt:1); target torch 2.8; configuration: none", result.stderr)
        self.assertRegex(result.stderr, r"timing: discovery( \(checking meanwhile\))? \d+ ms, settings \d+ ms, "
                                        r"checking [\d.]+ m?s, report \d+ ms \(\d+ files, \d+ jobs?\)")
        # With more than one job a report checks files while the walk goes on, and says so.
        for jobs, discovery in (("1", "discovery"), ("2", r"discovery \(checking meanwhile\)")):
            result = run("check", "-v", "--no-cache", "-j", jobs, "a", "b", cwd=self.tree.root, check_exit=1)
            self.assertRegex(result.stderr, r"timing: " + discovery + r" \d+ ms, settings \d+ ms, checking "
                                            r"[\d.]+ m?s, report \d+ ms \(\d+ files, " + jobs + r" jobs?\)")

    def test_the_report_itself_is_unchanged_and_plain_runs_say_nothing_more(self):
        verbose = run("check", "-v", "--no-cache", "a", "b", cwd=self.tree.root, check_exit=1)
        plain = run("check", "--no-cache", "a", "b", cwd=self.tree.root, check_exit=1)
        self.assertEqual(verbose.stdout, plain.stdout)
        self.assertNotIn("timing:", plain.stderr)
        self.assertNotIn("configuration:", plain.stderr)

    def test_show_settings_names_the_extended_file_and_fix_rules(self):
        result = run("check", "--show-settings", "--unfixable", "TM201", "a/m.py", cwd=self.tree.root, check_exit=0)
        self.assertIn("configuration: a/torchmigrate.toml (extends base.toml)", result.stdout)
        self.assertTrue(re.search(r"fixable: all; unfixable: TM201", result.stdout))


if __name__ == "__main__":
    unittest.main()
