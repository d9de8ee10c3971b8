# SPDX-License-Identifier: MIT
"""The configuration keys that also have flags (`--exclude`, `--per-file-ignores`, `--fixable`,
`--unfixable`) mean the same on either side, and `extend` builds one file on another."""
import unittest

from tm_e2e import TempTree, run

# TM102 (an error without a fix) and TM201 (a warning with a safe fix).
SOURCE = ("import torch\n"
          "from torch.fx.experimental.symbolic_shapes import definitely_true\n\n"
          "if definitely_true(a == b):\n    pass\n"
          "ep = torch.export.export(model, (x,))\n")


def codes(result):
    return sorted(line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ".py:" in line)


class FlagsMatchConfigKeys(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        for name in ["src/a.py", "tests/test_a.py"]:
            self.tree.write(name, SOURCE)
        self.tree.write("requirements.txt", "torch>=2.7,<2.8\n")  # a pinned range: safe fixes apply

    def check(self, *args, config=None, check_exit=None):
        (self.tree.root / "torchmigrate.toml").write_text(config or "")
        return run("check", "--no-cache", *args, ".", cwd=self.tree.root, check_exit=check_exit)

    def test_each_flag_gives_the_report_of_its_key(self):
        cases = [
            (["--exclude", "tests"], 'exclude = ["tests"]\n'),
            (["--per-file-ignores", "tests/**:TM102,TM201"], '[per-file-ignores]\n"tests/**" = ["TM102", "TM201"]\n'),
            (["--fixable", "TM102"], 'fixable = ["TM102"]\n'),
            (["--unfixable", "TM201"], 'unfixable = ["TM201"]\n'),
        ]
        plain = self.check().stdout
        for flags, key in cases:
            with self.subTest(flags=flags):
                by_flag = self.check(*flags).stdout
                self.assertNotEqual(by_flag, plain)
                self.assertEqual(by_flag, self.check(config=key).stdout)

    def test_unfixable_rules_are_reported_but_never_fixed(self):
        result = self.check("--unfixable", "TM201", "--fix", check_exit=1)
        self.assertIn("TM201", result.stdout)
        self.assertIn("export(model, (x,))", (self.tree.root / "src/a.py").read_text())
        self.check("--fix", check_exit=1)
        self.assertNotIn("export(model, (x,))", (self.tree.root / "src/a.py").read_text())

    def test_exclude_flag_replaces_the_key_and_extend_exclude_adds(self):
        config = 'exclude = ["tests"]\n'
        self.assertEqual({line.split(":")[0] for line in self.check("--exclude", "src", config=config).stdout.splitlines()
                          if ".py:" in line}, {"tests/test_a.py"})
        self.assertEqual(self.check("--extend-exclude", "src", config=config, check_exit=0).stdout.strip(),
                         "All checks passed!")

    def test_per_file_ignores_flag_rejects_an_entry_without_a_glob(self):
        result = self.check("--per-file-ignores", "TM102", check_exit=2)
        self.assertIn("--per-file-ignores takes GLOB:CODES", result.stderr)


class Extend(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("base.toml", 'ignore = ["TM102"]\n[per-file-ignores]\n"legacy/**" = ["TM201"]\n')
        self.tree.write("legacy/a.py", SOURCE)
        self.tree.write("app/torchmigrate.toml", 'extend = "../base.toml"\nunfixable = ["TM201"]\n')
        self.tree.write("app/b.py", SOURCE)

    def test_a_file_builds_on_its_base(self):
        result = run("check", "--no-cache", "app", cwd=self.tree.root, check_exit=1)
        self.assertEqual(codes(result), ["TM201"])  # TM102 ignored by the base
        self.assertNotIn("[*]", result.stdout)        # TM201 unfixable here

    def test_the_base_globs_stay_relative_to_the_base(self):
        # `legacy/**` in base.toml names the sibling folder, not app/legacy.
        self.tree.write("app/legacy/c.py", SOURCE)
        result = run("check", "--no-cache", "app", cwd=self.tree.root, check_exit=1)
        self.assertEqual(codes(result), ["TM201", "TM201"])

    def test_a_missing_base_is_a_configuration_error(self):
        self.tree.write("app/torchmigrate.toml", 'extend = "../nowhere.toml"\n')
        result = run("check", "app", cwd=self.tree.root, check_exit=2)
        self.assertIn("`extend = \"../nowhere.toml\"` names no file", result.stderr)


if __name__ == "__main__":
    unittest.main()
