# SPDX-License-Identifier: MIT
"""End-to-end tests of configuration files, .gitignore, suppressions, baselines and --add-noqa."""
import json
import os
import subprocess
import time
import unittest

from tm_e2e import TempTree, cache_keys, run

CALL = "torch.export.export(m, (x,))"


class TreeTest(unittest.TestCase):
    """A test in a temporary tree, with the (file, code) pairs a check of it finds."""

    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def codes(self, *args, cwd=None):
        result = run("check", *(args or (".",)), "--output-format", "json", cwd=cwd or self.tree.root)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return sorted((f["filename"], f["code"]) for f in json.loads(result.stdout))


class Configuration(TreeTest):

    def test_nearest_config_applies_per_directory(self):
        self.tree.write("pyproject.toml", '[tool.torchmigrate]\nselect = ["TM201"]\n')
        self.tree.write("a.py", f"import torch\n{CALL}\ntorch.onnx.export(m, (x,), 'f.onnx')\n")
        self.tree.write("sub/torchmigrate.toml", 'select = ["TM302"]\n')
        self.tree.write("sub/b.py", f"import torch\n{CALL}\ntorch.onnx.export(m, (x,), 'f.onnx')\n")
        self.assertEqual(self.codes("."), [("a.py", "TM201"), ("sub/b.py", "TM302")])
        # --isolated ignores both files; --config picks one for everything.
        self.assertIn(("a.py", "TM202"), self.codes(".", "--isolated"))
        self.assertEqual(self.codes(".", "--config", "sub/torchmigrate.toml"), [("a.py", "TM302"), ("sub/b.py", "TM302")])
        # The command line extends or replaces the file's selection.
        self.assertEqual(self.codes(".", "--select", "TM202"), [("a.py", "TM202"), ("sub/b.py", "TM202")])

    def test_per_file_ignores_and_excludes(self):
        self.tree.write("torchmigrate.toml", 'extend-exclude = ["generated"]\n[per-file-ignores]\n"tests/**" = ["TM2"]\n')
        for path in ("src/a.py", "tests/test_a.py", "generated/g.py"):
            self.tree.write(path, f"import torch\n{CALL}\n")
        self.assertEqual(self.codes("."), [("src/a.py", "TM201")])
        # An explicit file is checked unless --force-exclude (what pre-commit passes).
        self.assertEqual(self.codes("generated/g.py"), [("generated/g.py", "TM201")])
        self.assertEqual(self.codes("generated/g.py", "--force-exclude"), [])

    def test_config_errors_exit_2_and_name_the_key(self):
        self.tree.write("torchmigrate.toml", 'selekt = ["TM1"]\n')
        self.tree.write("a.py", "x = 1\n")
        result = run("check", ".", cwd=self.tree.root, check_exit=2)
        self.assertIn("torchmigrate.toml:1:1: unknown key `selekt`; valid keys:", result.stderr)
        self.tree.write("torchmigrate.toml", 'policy = { TM201 = "newest" }\n')
        self.assertIn("keep-old or adopt-new", run("check", ".", cwd=self.tree.root, check_exit=2).stderr)

    def test_non_ascii_outside_strings_is_a_config_error(self):
        # U+FEEF in a bare key: invalid TOML that toml++ 3.3.0 must not be given.
        self.tree.write("a.py", "x = 1\n")
        (self.tree.root / "pyproject.toml").write_bytes(
            "[tool.torchmigrate]\n# r\u00e9sum\u00e9\nsel\ufeefect = [\"TM1\"]\n".encode())
        result = run("check", ".", cwd=self.tree.root, check_exit=2)
        self.assertIn("pyproject.toml:3:4: invalid TOML: non-ASCII character outside a string or comment",
                      result.stderr)
        (self.tree.root / "pyproject.toml").write_bytes(
            "\ufeff[tool.torchmigrate]\n# r\u00e9sum\u00e9\nexclude = [\"caf\u00e9\"]\n".encode())
        run("check", ".", cwd=self.tree.root, check_exit=0)

    def test_config_policy_and_min_torch(self):
        self.tree.write("torchmigrate.toml", 'min-torch = "2.8"\npolicy = { TM201 = "adopt-new" }\n')
        self.tree.write("a.py", "from torch.fx.experimental.symbolic_shapes import definitely_true\n"
                                f"import torch\nok = definitely_true(x)\n{CALL}\n")
        result = run("check", ".", "--fix", "--unsafe-fixes", cwd=self.tree.root)
        self.assertIn("supported torch >= 2.8 (from torchmigrate.toml (min-torch)); target torch 2.8", result.stderr)
        text = (self.tree.root / "a.py").read_text()
        self.assertIn("guard_or_false(x)", text)
        # Every release from 2.8 on has the new `strict` default: nothing to migrate, no finding.
        self.assertNotIn("strict=", text)
        self.tree.write("torchmigrate.toml", 'min-torch = "2.7"\npolicy = { TM201 = "adopt-new" }\n')
        run("check", ".", "--fix", "--unsafe-fixes", cwd=self.tree.root)
        self.assertIn("strict=False", (self.tree.root / "a.py").read_text())

    def test_gitignore_is_respected_inside_a_repository(self):
        subprocess.run(["git", "init", "-q", str(self.tree.root)], check=True)
        self.tree.write(".gitignore", "ignored/\nskip_me.py\n")
        for path in ("kept.py", "ignored/a.py", "skip_me.py"):
            self.tree.write(path, f"import torch\n{CALL}\n")
        self.assertEqual(self.codes("."), [("kept.py", "TM201")])
        self.assertEqual(len(self.codes(".", "--no-respect-gitignore")), 3)

    def test_each_directory_takes_the_ignores_of_its_own_repository(self):
        # Directories are asked about parent first; a nested repository (its own `.git`) must
        # still get its own .gitignore, and a directory beside the repositories none at all.
        subprocess.run(["git", "init", "-q", str(self.tree.root / "outer")], check=True)
        subprocess.run(["git", "init", "-q", str(self.tree.root / "outer" / "deep" / "inner")], check=True)
        self.tree.write("outer/.gitignore", "outer_only.py\n")
        self.tree.write("outer/deep/inner/.gitignore", "inner_only.py\n")
        for path in ("outer/outer_only.py", "outer/inner_only.py", "outer/deep/inner/outer_only.py",
                     "outer/deep/inner/inner_only.py", "plain/sub/outer_only.py"):
            self.tree.write(path, f"import torch\n{CALL}\n")
        self.assertEqual(sorted(path for path, _ in self.codes(".")),
                         ["outer/deep/inner/outer_only.py", "outer/inner_only.py", "plain/sub/outer_only.py"])


class Cache(TreeTest):
    def test_cached_results_match_and_follow_edits(self):
        self.tree.write("torchmigrate.toml", 'cache-dir = ".cache"\n')
        path = self.tree.write("a.py", f"import torch\n{CALL}\n")
        first = run("check", ".", "--output-format", "json", cwd=self.tree.root, check_exit=1).stdout
        count = lambda: len(cache_keys(self.tree.root / ".cache"))  # noqa: E731
        checked = count()  # one entry per checked file (a.py, and torchmigrate.toml as a build file)
        self.assertEqual(checked, 2)
        self.assertTrue((self.tree.root / ".cache" / "CACHEDIR.TAG").exists())
        self.assertEqual(run("check", ".", "--output-format", "json", cwd=self.tree.root).stdout, first)
        self.assertEqual(count(), checked)
        # Changed content or settings are new keys, never a stale answer; new content replaces
        # the file's old entry, other settings add entries beside it.
        path.write_text("import torch\ntorch.export.export(m, (x,), strict=True)\n")
        run("check", ".", cwd=self.tree.root, check_exit=0)
        self.assertEqual(count(), checked)
        run("check", ".", "--select", "TM1", cwd=self.tree.root, check_exit=0)
        self.assertEqual(count(), checked + 2)
        # A damaged cache is ignored, not trusted.
        (self.tree.root / ".cache" / "results.bin").write_text("{broken")
        run("check", ".", cwd=self.tree.root, check_exit=0)
        run("check", ".", "--no-cache", cwd=self.tree.root, check_exit=0)

    def test_a_file_served_unread_is_read_again_after_any_write(self):
        # Unchanged files are served by their size, times and inode, not read; a write that
        # keeps the size and puts the modification time back still changes the change time.
        self.tree.write("torchmigrate.toml", 'cache-dir = ".cache"\n')
        look_alike = CALL.replace("export(", "exporx(")  # same length, not torch's
        path = self.tree.write("a.py", f"import torch\n{look_alike}\n")
        time.sleep(2.1)  # a stamp from the run's own clock tick is never trusted
        for _ in range(2):
            self.assertEqual(self.codes(), [])
        written = path.stat()
        path.write_text(f"import torch\n{CALL}\n")
        os.utime(path, ns=(written.st_atime_ns, written.st_mtime_ns))
        self.assertEqual((path.stat().st_size, path.stat().st_mtime_ns), (written.st_size, written.st_mtime_ns))
        self.assertEqual(self.codes(), [("a.py", "TM201")])


class SuppressionsAndBaselines(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def test_add_noqa_then_clean(self):
        path = self.tree.write("a.py", f"import torch\n{CALL}\ns = '''\n{CALL}'''\ntorch.onnx.export(m, (x,), 'f')\n")
        run("check", "a.py", "--add-noqa", cwd=self.tree.root, check_exit=0)
        text = path.read_text()
        self.assertIn(f"{CALL}  # noqa: TM201\n", text)
        self.assertIn("torch.onnx.export(m, (x,), 'f')  # noqa: TM202, TM302\n", text)
        run("check", "a.py", cwd=self.tree.root, check_exit=0)
        # Once the code is migrated, the suppression is reported as unused (TM001, opt-in).
        path.write_text(text.replace(CALL + "  #", "torch.export.export(m, (x,), strict=True)  #", 1))
        result = run("check", "a.py", "--extend-select", "TM001", cwd=self.tree.root, check_exit=1)
        self.assertIn("TM001 [*] Unused suppression for `TM201`", result.stdout)

    def test_noqa_on_continued_lines_and_strings_spanning_lines(self):
        # Ruff's reading: the directive goes where the continued line ends or the string closes,
        # and covers findings on every line of it.
        source = (f"import torch\nep = {CALL} + \\\n    0\n"
                  'torch.onnx.export(m, x, "f.onnx", doc="""\nhi""")\n')
        path = self.tree.write("a.py", source)
        result = run("check", "a.py", "--add-noqa", cwd=self.tree.root, check_exit=0)
        self.assertNotIn("by hand", result.stderr)
        self.assertIn("Added 2 noqa directives.", result.stderr)
        self.assertEqual(path.read_text(), f"import torch\nep = {CALL} + \\\n    0  # noqa: TM201\n"
                                           'torch.onnx.export(m, x, "f.onnx", doc="""\nhi""")  # noqa: TM202, TM302\n')
        result = run("check", "a.py", "--extend-select", "TM001", cwd=self.tree.root, check_exit=0)
        self.assertIn("All checks passed!", result.stdout)
        # A directive left on a line of its own above covers nothing.
        path.write_text(f"import torch\n# noqa: TM201\nep = {CALL} + \\\n    0\n")
        result = run("check", "a.py", "--extend-select", "TM001", "--output-format", "concise",
                     cwd=self.tree.root, check_exit=1)
        self.assertIn("a.py:2:1: TM001", result.stdout)
        self.assertIn("a.py:3:6: TM201", result.stdout)

    def test_add_noqa_refuses_fix_and_diff(self):
        path = self.tree.write("a.py", f"import torch\n{CALL}\n")
        for flag in ("--diff", "--fix", "--fix-only"):
            result = run("check", "a.py", "--add-noqa", flag, cwd=self.tree.root, check_exit=2)
            self.assertIn(f"--add-noqa cannot be combined with {flag}", result.stderr)
        self.assertEqual(path.read_text(), f"import torch\n{CALL}\n")

    def test_baseline_survives_moved_lines_and_never_hides_tm1(self):
        path = self.tree.write("a.py", "import torch\n"
                                       f"def build():\n    return {CALL}\n"
                                       "ep = torch.export.export_for_inference(m, (x,))\n")
        run("check", "a.py", "--write-baseline", "baseline.json", cwd=self.tree.root)
        baseline = json.loads((self.tree.root / "baseline.json").read_text())
        self.assertEqual([f["code"] for f in baseline["findings"]], ["TM201"])
        path.write_text("import torch\n# a new comment moves every line\n\n" + path.read_text().split("\n", 1)[1])
        result = run("check", "a.py", "--baseline", "baseline.json", cwd=self.tree.root, check_exit=1)
        self.assertNotIn("TM201", result.stdout)
        self.assertIn("TM101", result.stdout)
        # A new finding of a baselined rule elsewhere is still reported.
        path.write_text(path.read_text() + f"other = {CALL}\n")
        result = run("check", "a.py", "--baseline", "baseline.json", cwd=self.tree.root, check_exit=1)
        self.assertEqual(result.stdout.count("TM201"), 1)

    def test_contradictory_options_exit_2(self):
        self.tree.write("a.py", "x = 1\n")
        self.assertIn("use one or the other", run("check", "a.py", "--add-noqa", "--baseline", "b.json",
                                                  cwd=self.tree.root, check_exit=2).stderr)
        self.assertIn("--show-fixes", run("check", "a.py", "--fix-only", "--statistics",
                                          cwd=self.tree.root, check_exit=2).stderr)
        run("check", "a.py", "--config", "x.toml", "--isolated", cwd=self.tree.root, check_exit=2)

    def test_bad_baseline_exits_2(self):
        self.tree.write("a.py", "x = 1\n")
        self.tree.write("b.json", "{}")
        self.assertIn("not a torchmigrate baseline", run("check", "a.py", "--baseline", "b.json",
                                                         cwd=self.tree.root, check_exit=2).stderr)


if __name__ == "__main__":
    unittest.main()
