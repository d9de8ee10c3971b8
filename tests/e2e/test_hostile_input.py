# SPDX-License-Identifier: MIT
"""End-to-end tests of hostile input: a poisoned cache, a repository's config that tries to
write outside the project, CR-only files, configuration mistakes, file names that try to
inject lines into a report, and writes through symbolic links."""
import json
import os
import subprocess
import unittest
import xml.dom.minidom

from tm_e2e import TempTree, cache_checksum, run

CALL = "torch.export.export(m, (x,))"
SOURCE = f"import torch\n\ndef build(m, x):\n    if x:\n        return {CALL}\n    return torch.export.export_for_inference(m, (x,))\n"


def git_init(path):
    subprocess.run(["git", "init", "-q", str(path)], check=True)


class PoisonedCache(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        git_init(self.tree.root)
        self.tree.write("torchmigrate.toml", 'cache-dir = ".cache"\n')
        self.tree.write("a.py", SOURCE)
        self.tree.write("b.py", f"import torch\n{CALL}\n")

    def report(self, *args):
        return run("check", ".", "--output-format", "json", *args, cwd=self.tree.root, check_exit=1).stdout

    def entries(self):
        return sorted((self.tree.root / ".cache").glob("results.bin"))

    def test_flipped_bytes_give_exactly_the_uncached_report(self):
        uncached = self.report("--no-cache")
        self.assertEqual(self.report(), uncached)
        originals = {entry: entry.read_bytes() for entry in self.entries()}
        self.assertTrue(originals)
        # The attacks of the issue: a message, a code, a fix changed in place, a byte flipped.
        for old, new in ((b"defaults", b"dEfaults"), (b"TM201", b"TM999"), (b"strict=True", b"strict=Fals"),
                         (b"\x01\x00\x00\x00", b"\x02\x00\x00\x00")):
            self.assertTrue(any(old in data for data in originals.values()), old)
            for entry, data in originals.items():
                entry.write_bytes(data.replace(old, new))
            self.assertEqual(self.report(), uncached, old)
            # ... and the entries were rewritten with the true findings.
            self.assertEqual({entry: entry.read_bytes() for entry in self.entries()}, originals)
        for entry, data in originals.items():
            entry.write_bytes(data[: len(data) // 2])
        self.assertEqual(self.report(), uncached)

    def test_entries_are_served_when_they_verify(self):
        # Proves the cache is read at all: an entry re-signed after an edit of its message
        # (a checksum is against damage, not forgery) comes back as stored.
        self.report()
        for entry in self.entries():
            header, payload = entry.read_bytes().split(b"\n", 1)
            payload = payload.replace(b"defaults to", b"DEFAULTS TO")
            digest = cache_checksum(payload)
            entry.write_bytes(header.rsplit(b" ", 1)[0] + b" " + digest + b"\n" + payload)
        self.assertIn("DEFAULTS TO", self.report())

    def test_cache_directory_gets_gitignore_and_tag(self):
        self.report()
        self.assertEqual((self.tree.root / ".cache" / ".gitignore").read_text().splitlines()[-1], "*")
        self.assertTrue((self.tree.root / ".cache" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f59"))
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=self.tree.root,
                                capture_output=True, text=True, check=True).stdout
        self.assertNotIn(".cache", status)


class ProjectInTemp(unittest.TestCase):
    """A git repository `project/` inside a temporary directory, to see what lands beside it."""

    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.project = self.tree.root / "project"
        self.project.mkdir()
        git_init(self.project)
        (self.project / "requirements.txt").write_text("torch>=2.7,<2.8\n")  # a pinned range: safe fixes apply


class HostileCacheDir(ProjectInTemp):
    def setUp(self):
        super().setUp()
        self.tree.write("project/a.py", f"import torch\n{CALL}\n")

    def test_config_cannot_name_a_directory_outside_the_project(self):
        for value in ("../..", "..", "", ".", "/tmp/elsewhere"):
            self.tree.write("project/torchmigrate.toml", f'cache-dir = "{value}"\n')
            result = run("check", ".", cwd=self.project, check_exit=2)
            self.assertIn("torchmigrate.toml:1:13: `cache-dir`", result.stderr, value)
        self.assertEqual(sorted(p.name for p in self.tree.root.iterdir()), ["project"])
        self.assertFalse((self.project / "CACHEDIR.TAG").exists())
        self.assertFalse((self.project / ".gitignore").exists())

    def test_a_link_out_of_the_project_is_refused_once(self):
        outside = self.tree.root / "outside"
        outside.mkdir()
        (self.project / "cache").symlink_to(outside)
        self.tree.write("project/b.py", f"import torch\n{CALL}\n")
        self.tree.write("project/torchmigrate.toml", 'cache-dir = "cache/tm"\n')
        result = run("check", ".", cwd=self.project, check_exit=1)
        self.assertEqual(result.stdout.count("TM201"), 2)
        self.assertEqual(result.stderr.count("not using the cache directory"), 1, result.stderr)
        self.assertEqual(list(outside.iterdir()), [])

    def test_an_unusable_directory_is_reported_once(self):
        self.tree.write("project/cache", "a file, not a directory\n")
        self.tree.write("project/b.py", f"import torch\n{CALL}\n")
        self.tree.write("project/torchmigrate.toml", 'cache-dir = "cache"\n')
        result = run("check", ".", cwd=self.project, check_exit=1)
        self.assertEqual(result.stderr.count("warning: not using the cache directory"), 1, result.stderr)
        self.assertIn("it is not a directory", result.stderr)

    def test_command_line_and_environment_may_name_any_directory(self):
        elsewhere = self.tree.root / "shared" / "cache"
        run("check", ".", "--cache-dir", str(elsewhere), cwd=self.project, check_exit=1)
        self.assertTrue((elsewhere / "CACHEDIR.TAG").exists())
        self.assertFalse((elsewhere.parent / "CACHEDIR.TAG").exists())
        from_env = self.tree.root / "env-cache"
        env = dict(os.environ, TORCHMIGRATE_CACHE_DIR=str(from_env))
        subprocess.run([os.environ.get("TORCHMIGRATE_BIN", "torchmigrate"), "check", "."], cwd=self.project, env=env,
                       capture_output=True, check=False, timeout=120)
        self.assertTrue((from_env / "results.bin").is_file())
        # An existing directory is used as it is: never tagged.
        existing = self.tree.root / "existing"
        existing.mkdir()
        run("check", ".", "--cache-dir", str(existing), cwd=self.project, check_exit=1)
        self.assertFalse((existing / "CACHEDIR.TAG").exists())
        self.assertTrue((existing / "results.bin").is_file())


class CarriageReturnLines(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("requirements.txt", "torch>=2.7,<2.8\n")  # a pinned range: safe fixes apply

    def test_cr_only_file_lints_and_fixes_like_lf(self):
        lf = self.tree.root / "lf" / "m.py"
        cr = self.tree.root / "cr" / "m.py"
        for path, ending in ((lf, b"\n"), (cr, b"\r")):
            path.parent.mkdir()
            path.write_bytes((SOURCE + f"x = {CALL}  # noqa: TM201\n").encode().replace(b"\n", ending))
        reports = {}
        for name in ("lf", "cr"):
            result = run("check", "m.py", "--isolated", "--output-format", "full", cwd=self.tree.root / name,
                         check_exit=1)
            reports[name] = result.stdout
        self.assertNotIn("TM901", reports["cr"])
        self.assertIn("m.py:5:16: TM201", reports["cr"])
        self.assertEqual(reports["cr"], reports["lf"])
        run("check", "m.py", "--isolated", "--fix", cwd=self.tree.root / "cr", check_exit=0)
        run("check", "m.py", "--isolated", "--fix", cwd=self.tree.root / "lf", check_exit=0)
        self.assertNotIn(b"\n", cr.read_bytes())
        self.assertEqual(cr.read_bytes(), lf.read_bytes().replace(b"\n", b"\r"))


class ConfigMistakes(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        git_init(self.tree.root)
        self.tree.write("a.py", f"import torch\n{CALL}\n")

    def error(self, name, text):
        self.tree.write(name, text)
        try:
            return run("check", ".", cwd=self.tree.root, check_exit=2).stderr
        finally:
            (self.tree.root / name).unlink()

    def test_each_mistake_exits_2_with_file_line_and_key(self):
        cases = [
            ("pyproject.toml", "[tool.torchmigrate]\nselect = [\"TM2\"\n", "pyproject.toml:2:", "invalid TOML"),
            ("torchmigrate.toml", "select = [\"TM2\"\n", "torchmigrate.toml:1:", "invalid TOML"),
            ("torchmigrate.toml", "[extension]\npy = \"cxx\"\n", "torchmigrate.toml:2:6:", "`extension.py` maps `py`"),
            ("torchmigrate.toml", "[extension]\n\"\" = \"python\"\n", "torchmigrate.toml:2:6:", "names the ending"),
            ("torchmigrate.toml", "exclude = [\"[\"]\n", "torchmigrate.toml:1:12:", "without a closing `]`"),
            ("pyproject.toml", "[tool]\ntorchmigrate = 5\n", "pyproject.toml:2:16:", "must be a table"),
            ("torchmigrate.toml", "select = \"TM2\"\n", "torchmigrate.toml:1:10:", "must be an array of strings"),
        ]
        for name, text, where, what in cases:
            stderr = self.error(name, text)
            self.assertIn(where, stderr, text)
            self.assertIn(what, stderr, text)

    def test_select_empty_means_no_rules(self):
        self.tree.write("torchmigrate.toml", "select = []\n")
        result = run("check", ".", cwd=self.tree.root, check_exit=0)
        self.assertIn("All checks passed!", result.stdout)
        self.tree.write("torchmigrate.toml", "select = []\nextend-select = [\"TM201\"]\n")
        self.assertIn("TM201", run("check", ".", cwd=self.tree.root, check_exit=1).stdout)

    def test_unrelated_broken_pyproject_is_passed_over(self):
        self.tree.write("pyproject.toml", "[project\nname = 'x'\n")
        self.assertIn("TM201", run("check", ".", cwd=self.tree.root, check_exit=1).stdout)

    def test_a_config_above_the_repository_does_not_apply(self):
        outer = TempTree()
        self.addCleanup(outer.cleanup)
        outer.write("torchmigrate.toml", "select = [\"TM1\"]\n")
        outer.write("checkout/a.py", f"import torch\n{CALL}\n")
        git_init(outer.root / "checkout")
        self.assertIn("TM201", run("check", ".", cwd=outer.root / "checkout", check_exit=1).stdout)


class InjectedFileNames(unittest.TestCase):
    NAME = "a\n::error file=x.py,line=1::pwned\x1b[31m.py"

    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write(self.NAME, f"import torch\n{CALL}\n")

    def output(self, fmt):
        result = subprocess.run([os.environ.get("TORCHMIGRATE_BIN", "torchmigrate"), "check", ".", "--isolated",
                                 "--output-format", fmt], cwd=self.tree.root, capture_output=True, timeout=120)
        self.assertEqual(result.returncode, 1, result.stderr)
        return result.stdout.decode()

    def test_no_format_lets_a_file_name_start_a_line(self):
        for fmt in ("concise", "full", "github", "json", "json-lines", "sarif", "gitlab", "junit"):
            text = self.output(fmt)
            for line in text.splitlines():
                self.assertFalse(line.startswith("::error file=x.py"), (fmt, line))
            self.assertNotIn("\x1b", text, fmt)
        self.assertIn("a\\n::error file=x.py,line=1::pwned\\x1b[31m.py:2:1: TM201", self.output("concise"))
        self.assertEqual(len(self.output("github").splitlines()), 1)
        self.assertIn("file=a%0A%3A%3Aerror file=x.py%2Cline=1%3A%3Apwned", self.output("github"))
        self.assertEqual(json.loads(self.output("json"))[0]["filename"], self.NAME)
        self.assertEqual(json.loads(self.output("json-lines"))["filename"], self.NAME)
        self.assertEqual(json.loads(self.output("gitlab"))[0]["location"]["path"], self.NAME)
        sarif = json.loads(self.output("sarif"))
        self.assertEqual(len(sarif["runs"][0]["results"]), 1)
        xml.dom.minidom.parseString(self.output("junit"))


class LinkedWrites(ProjectInTemp):
    def setUp(self):
        super().setUp()
        self.target = self.tree.write("outside/victim.py", f"import torch\n{CALL}\n")
        (self.project / "link.py").symlink_to(self.target)
        self.tree.write("outside/requirements.txt", "torch>=2.7,<2.8\n")  # the target's own project pins torch

    def test_add_noqa_does_not_write_through_a_link_out_of_the_project(self):
        result = run("check", "link.py", "--add-noqa", cwd=self.project, check_exit=1)
        self.assertIn("outside the project", result.stderr)
        self.assertIn("--follow-links", result.stderr)
        self.assertEqual(self.target.read_text(), f"import torch\n{CALL}\n")
        run("check", "link.py", "--add-noqa", "--follow-links", cwd=self.project, check_exit=0)
        self.assertIn("# noqa: TM201", self.target.read_text())
        self.assertTrue((self.project / "link.py").is_symlink())

    def test_fix_does_not_write_through_a_link_out_of_the_project(self):
        result = run("check", "link.py", "--fix", cwd=self.project, check_exit=1)
        self.assertIn("outside the project", result.stdout + result.stderr)
        self.assertEqual(self.target.read_text(), f"import torch\n{CALL}\n")
        run("check", "link.py", "--fix", "--follow-links", cwd=self.project, check_exit=0)
        self.assertIn("strict=True", self.target.read_text())
        # A link to a file inside the project is written through as before.
        inner = self.tree.write("project/pkg/real.py", f"import torch\n{CALL}\n")
        (self.project / "alias.py").symlink_to("pkg/real.py")
        run("check", "alias.py", "--fix", cwd=self.project, check_exit=0)
        self.assertIn("strict=True", inner.read_text())


if __name__ == "__main__":
    unittest.main()
