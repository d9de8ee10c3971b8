# SPDX-License-Identifier: MIT
"""--show-files, `rule --all`, `rules --output-format markdown` and the TORCHMIGRATE_OUTPUT_FORMAT
and TORCHMIGRATE_CACHE_DIR environment variables."""
import json
import os
import subprocess
import unittest

from test_cli_options import SOURCE
from tm_e2e import BINARY, TempTree, run


class Extras(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("src/a.py", SOURCE)
        self.tree.write("src/notes.txt", SOURCE)
        self.tree.write("build/generated.py", SOURCE)
        self.tree.write("scripts/tool.py", SOURCE)
        self.tree.write("scripts/ignored.py", SOURCE)
        self.tree.write(".gitignore", "ignored.py\n")
        subprocess.run(["git", "init", "-q", str(self.tree.root)], check=True)

    def test_show_files_lists_what_would_be_checked_and_checks_nothing(self):
        result = run("check", "--show-files", cwd=self.tree.root, check_exit=0)
        self.assertEqual(result.stdout.splitlines(), ["scripts/tool.py", "src/a.py"])
        excluded = run("check", "--show-files", "--extend-exclude", "scripts", cwd=self.tree.root, check_exit=0)
        self.assertEqual(excluded.stdout.splitlines(), ["src/a.py"])
        self.assertNotIn("Found", result.stdout)

    def test_rule_all_explains_every_rule(self):
        listed = json.loads(run("rules", "--output-format", "json", check_exit=0).stdout)
        everything = json.loads(run("rule", "--all", "--output-format", "json", check_exit=0).stdout)
        self.assertEqual([rule["code"] for rule in everything], [rule["code"] for rule in listed])
        self.assertEqual(everything[0], json.loads(run("rule", listed[0]["code"], "--output-format", "json").stdout))
        text = run("rule", "--all", check_exit=0).stdout
        for rule in listed:
            self.assertIn(f"# {rule['name']} ({rule['code']})\n", text)
        self.assertIn("needs a CODE, or --all", run("rule", check_exit=2).stderr)

    def test_rules_as_markdown_is_the_docs_index(self):
        index = (self.tree.root / "docs")
        run("rules", "--write-docs", str(index), check_exit=0)
        self.assertEqual(run("rules", "--output-format", "markdown", check_exit=0).stdout,
                         (index / "README.md").read_text())

    def test_environment_variables_stand_for_the_options(self):
        env = {**os.environ, "TORCHMIGRATE_OUTPUT_FORMAT": "json",
               "TORCHMIGRATE_CACHE_DIR": str(self.tree.root / "env-cache")}
        result = subprocess.run([BINARY, "check", "src"], cwd=self.tree.root, env=env, capture_output=True, text=True,
                                timeout=120)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual({finding["code"] for finding in json.loads(result.stdout)}, {"TM102", "TM201"})
        self.assertTrue((self.tree.root / "env-cache").is_dir())
        # The option on the command line wins over the variable.
        concise = subprocess.run([BINARY, "check", "src", "--output-format", "concise"], cwd=self.tree.root, env=env,
                                 capture_output=True, text=True, timeout=120)
        self.assertIn("src/a.py:", concise.stdout)
        env["TORCHMIGRATE_OUTPUT_FORMAT"] = "xml"
        bad = subprocess.run([BINARY, "check", "src"], cwd=self.tree.root, env=env, capture_output=True, text=True,
                             timeout=120)
        self.assertEqual(bad.returncode, 2)


if __name__ == "__main__":
    unittest.main()
