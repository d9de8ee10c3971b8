# SPDX-License-Identifier: MIT
"""End-to-end tests of the release-train model as a user meets it: the range and target lines on
stderr, `--target-version` in the command line, the cache and `rule CODE`, conflicting pins, and
`--show-settings` naming every pin file read."""
import json
import unittest

from tm_e2e import TempTree, run

DYNAMO_EXPORT = "import torch\n\nprogram = torch.onnx.dynamo_export(model, x)\n"
EXPORT = "import torch\n\nep = torch.export.export(model, (x,))\n"


class ReleaseTrain(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def findings(self, *args):
        result = run("check", "--output-format", "json", *args, cwd=self.tree.root)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return [(f["code"], f["severity"], f["message"]) for f in json.loads(result.stdout)]

    def test_target_version_is_part_of_the_cache_key(self):
        self.tree.write("requirements.txt", "torch>=2.7,<2.8\n")
        self.tree.write("m.py", DYNAMO_EXPORT)
        cache = ["--cache-dir", str(self.tree.root / "cache")]
        at_28 = self.findings(*cache, ".")
        self.assertEqual([(code, severity) for code, severity, _ in at_28], [("TM303", "warning")])
        at_29 = self.findings(*cache, "--target-version", "2.9", ".")
        self.assertEqual([(code, severity) for code, severity, _ in at_29], [("TM303", "error")])
        self.assertTrue(at_29[0][2].endswith("; this breaks on the target release, torch 2.9 or later"), at_29)
        # Back at 2.8, from the cache: the warning again, not the stored error.
        self.assertEqual(self.findings(*cache, "."), at_28)
        self.assertEqual(self.findings(*cache, "--target-version", "latest", "."), at_29)

    def test_unknown_target_exits_2_naming_the_allowed_values(self):
        self.tree.write("m.py", EXPORT)
        result = run("check", "--target-version", "3.0", ".", cwd=self.tree.root, check_exit=2)
        self.assertIn("unknown target version `3.0`; expected 2.8", result.stderr)
        self.assertIn("or latest", result.stderr)
        self.tree.write("torchmigrate.toml", 'target-version = "two"\n')
        result = run("check", ".", cwd=self.tree.root, check_exit=2)
        self.assertIn("torchmigrate.toml:1:18: `target-version` unknown target version `two`; expected 2.8, 2.9, "
                      "2.10, 2.11, or latest", result.stderr)

    def test_latest_checks_a_project_past_the_newest_catalog_at_its_oldest_torch(self):
        self.tree.write("requirements.txt", "torch>=2.12\n")
        self.tree.write("m.py", "import torch\n\nep = torch.export.export_for_training(model, (x,))\n")
        result = run("check", "--target-version", "latest", "--output-format", "concise", ".", cwd=self.tree.root,
                     check_exit=1)
        self.assertEqual(result.stderr, "torchmigrate: supported torch >= 2.12 (from requirements.txt:1); "
                                        "target torch 2.12 (from --target-version)\n")
        self.assertIn("m.py:3:6: TM120 [*] `torch.export.export_for_training` was removed in torch 2.11", result.stdout)
        self.assertIn("this already fails on every supported torch (the project supports torch >= 2.12)",
                      result.stdout)
        # A release older than the project's oldest torch is refused, pointing at `latest`.
        result = run("check", "--target-version", "2.11", ".", cwd=self.tree.root, check_exit=2)
        self.assertIn("target-version 2.11 (from --target-version) is older than the oldest torch the project "
                      "supports, 2.12 (from requirements.txt:1); choose `latest`, which checks it at its oldest "
                      "torch", result.stderr)

    def test_a_plain_folder_prints_one_range_line(self):
        for name in ("a", "b/c", "d/e/f"):
            self.tree.write(f"{name}/m.py", EXPORT)
        self.tree.write("b/requirements-docs.txt", "sphinx\n")
        result = run("check", ".", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stderr, "torchmigrate: supported torch >= 2.7 (default; no torch pin found); "
                                        "target torch 2.8\n")

    def test_several_projects_print_one_summary_line_and_verbose_one_per_project(self):
        self.tree.write("a/requirements.txt", "torch>=2.5,<2.9\n")
        self.tree.write("a/m.py", EXPORT)
        self.tree.write("b/pyproject.toml", '[project]\nname = "b"\ndependencies = ["torch>=2.6"]\n')
        self.tree.write("b/m.py", EXPORT)
        self.tree.write("c/requirements.txt", "torch>=2.5,<2.9\n")
        self.tree.write("c/m.py", EXPORT)
        result = run("check", ".", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stderr, "torchmigrate: 3 projects, supported torch 2.5-2.8 (2), >= 2.6 (1); "
                                        "target torch 2.8 (-v names each project)\n")
        verbose = run("check", "-v", ".", cwd=self.tree.root, check_exit=1)
        self.assertIn("torchmigrate: a: supported torch 2.5-2.8 (from a/requirements.txt:1); target torch 2.8; "
                      "configuration: none\n", verbose.stderr)
        self.assertIn("torchmigrate: b: supported torch >= 2.6 (from b/pyproject.toml:3)", verbose.stderr)

    def test_conflicting_pins_warn_once_and_use_the_widest_range(self):
        self.tree.write("requirements.txt", "torch>=2.9\n")
        self.tree.write("constraints.txt", "torch==2.7.1\n")
        self.tree.write("m.py", EXPORT)
        result = run("check", ".", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stderr.count("warning: conflicting torch pins"), 1, result.stderr)
        self.assertIn("requirements.txt:1 (>= 2.9) and constraints.txt:1 (2.7) admit no release together; using "
                      "the widest range (correct the pins, or set `min-torch`)", result.stderr)
        self.assertIn("supported torch >= 2.7", result.stderr)

    def test_show_settings_names_the_pins_read_and_the_inherited_range(self):
        self.tree.write(".git/HEAD", "ref: refs/heads/main\n")
        self.tree.write("requirements.txt", "torch>=2.1,<2.9\n")
        self.tree.write("docker/Dockerfile", "RUN pip install torch==2.4.1\n")
        self.tree.write("pkg/setup.py", "from setuptools import setup\nsetup(name='pkg')\n")
        self.tree.write("pkg/m.py", EXPORT)
        out = run("check", "--show-settings", "pkg/m.py", cwd=self.tree.root, check_exit=0).stdout
        self.assertIn("  project root: pkg\n", out)
        # The image's exact pin is one supported release (2.4); the package's own pin decides the range.
        self.assertIn("  supported torch: 2.1-2.8 (from requirements.txt:1, inherited from .)\n", out)
        self.assertIn("  torch pins read: pkg/setup.py; inherited from .: requirements.txt, docker/Dockerfile\n", out)
        self.assertIn("  target torch: 2.8 (default)\n", out)
        root = run("check", "--show-settings", "m.py", cwd=self.tree.root, check_exit=0).stdout
        self.assertIn("  torch pins read: requirements.txt, docker/Dockerfile\n", root)

    def test_rule_explains_when_it_applies(self):
        out = run("rule", "TM201", check_exit=0).stdout
        self.assertIn("## When it applies\n\nReported when the project's supported range crosses torch 2.8", out)
        rule = json.loads(run("rule", "TM303", "--output-format", "json", check_exit=0).stdout)
        self.assertEqual(rule["removed_in"], "2.9")
        self.assertIn("as breaking (an error) when it is 2.9 or newer", rule["applies"])


if __name__ == "__main__":
    unittest.main()
