# SPDX-License-Identifier: MIT
"""`merge`: the JSON results of `check --shard K/N` joined into one report are byte for byte the
report of one unsharded run, in every format and with its exit code, for N = 1, 2 and 7 on the
example project and on a generated tree of 5,000 files; shards that do not make up one run
are refused with exit 2."""
import json
import os
import shutil
import unittest

from tm_e2e import EXAMPLE, SOURCE_DIR, TempTree, copy_tree, run

FORMATS = ("json", "json-lines", "concise", "full", "grouped", "pylint", "rdjson", "sarif", "github", "gitlab", "junit",
           "markdown", "html")
# For the large tree: the formats CI reads, whose reports cover every file.
CI_FORMATS = ("json", "concise", "sarif", "github", "gitlab", "junit", "markdown")
ENV = {k: v for k, v in os.environ.items() if k not in ("GITHUB_WORKSPACE", "CI_PROJECT_DIR", "TORCHMIGRATE_SHARD")}


def check(cwd, *args, cache=None):
    return run("check", *(("--cache-dir", cache) if cache else ("--no-cache",)), *args, ".", cwd=cwd, env=ENV)


def write_shards(cwd, total, *args, prefix="shard", cache=None):
    names = []
    for k in range(1, total + 1):
        name = cwd.parent / f"{prefix}-{k}-of-{total}.json"
        result = check(cwd, "--shard", f"{k}/{total}", "--output-format", "json", "-o", name, *args, cache=cache)
        assert result.returncode in (0, 1), result.stderr
        names.append(name)
    return names


def merge(cwd, *args):
    return run("merge", *args, cwd=cwd, env=ENV)


class MergeEqualsOneRun(unittest.TestCase):
    def assert_merges_like_one_run(self, root, formats=FORMATS, cache=None):
        single = {f: check(root, "--output-format", f, cache=cache) for f in formats}
        self.assertIn("Found", single["concise"].stdout)
        statistics = {f: check(root, "--statistics", "--output-format", f, cache=cache) for f in ("concise", "json")}
        for total in (1, 2, 7):
            shards = write_shards(root, total, cache=cache)
            for name in formats:
                with self.subTest(total=total, format=name):
                    merged = merge(root, "--output-format", name, *shards)
                    self.assertEqual(merged.stdout, single[name].stdout)
                    self.assertEqual(merged.returncode, single[name].returncode)
            for name, expected in statistics.items():
                with self.subTest(total=total, statistics=name):
                    self.assertEqual(merge(root, "--statistics", "--output-format", name, *shards).stdout,
                                     expected.stdout)
            with self.subTest(total=total, output_file=True):
                out = root.parent / "merged.sarif"
                merged = merge(root, "--output-format", "sarif", "-o", out, "--exit-zero", *reversed(shards))
                self.assertEqual(merged.returncode, 0)
                self.assertEqual(out.read_text(), single["sarif"].stdout)

    def test_the_example_project(self):
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        self.assert_merges_like_one_run(tree.project)

    def test_a_generated_tree_of_5000_files(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        copy_tree(tree.root / "project", 5000)
        # One cache for all its runs keeps them short; the example project runs uncached.
        self.assert_merges_like_one_run(tree.project, CI_FORMATS, cache=tree.root / "cache")

    def test_notebooks_and_run_options(self):
        # Notebook findings are placed in cells, and --unsafe-fixes changes the fix markers and
        # the --statistics footer: both must come through the shards.
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        for notebook in ("several_cells.ipynb", "crlf_two_space.ipynb", "wrong_version.ipynb"):
            shutil.copy(SOURCE_DIR / "tests" / "fixtures" / "notebooks" / notebook, tree.project / notebook)
        for options in ((), ("--unsafe-fixes",), ("--policy", "adopt-new", "--min-torch", "2.8")):
            single = {f: check(tree.project, *options, "--output-format", f) for f in FORMATS}
            statistics = check(tree.project, *options, "--statistics").stdout
            self.assertIn("cell ", single["concise"].stdout)
            shards = write_shards(tree.project, 2, *options)
            for name in FORMATS:
                with self.subTest(options=options, format=name):
                    self.assertEqual(merge(tree.project, "--output-format", name, *shards).stdout, single[name].stdout)
            self.assertEqual(merge(tree.project, "--statistics", *shards).stdout, statistics)

    def test_a_clean_run_merges_to_a_clean_report(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        tree.write("project/ok.py", "import torch\n")
        tree.write("project/also_ok.py", "x = 1\n")
        shards = write_shards(tree.project, 2)
        for name in ("concise", "junit", "markdown"):
            merged = merge(tree.project, "--output-format", name, *shards)
            self.assertEqual(merged.returncode, 0)
            self.assertEqual(merged.stdout, check(tree.project, "--output-format", name).stdout)


class MergeRefuses(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree(EXAMPLE)
        self.addCleanup(self.tree.cleanup)
        self.root = self.tree.project

    def assert_refused(self, message, *shards):
        result = merge(self.root, *shards)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(message, result.stderr)
        self.assertEqual(result.stdout, "")

    def test_a_missing_shard(self):
        shards = write_shards(self.root, 3)
        self.assert_refused("missing shard 2/3", shards[0], shards[2])

    def test_a_shard_given_twice(self):
        shards = write_shards(self.root, 2)
        self.assert_refused("shard 1/2 is given twice", shards[0], shards[1], shards[0])

    def test_shards_of_different_splits(self):
        halves, thirds = write_shards(self.root, 2), write_shards(self.root, 3)
        self.assert_refused("splits the run into 3 shards", halves[0], thirds[1], halves[1])

    def test_shards_with_different_settings(self):
        shards = write_shards(self.root, 2)
        other = self.root.parent / "other.json"
        check(self.root, "--shard", "2/2", "--output-format", "json", "-o", other, "--select", "TM1")
        self.assert_refused("comes from another run", shards[0], other)

    def test_shards_of_a_changed_tree(self):
        shards = write_shards(self.root, 2)
        (self.root / "new_module.py").write_text("import torch\n")
        later = write_shards(self.root, 2, prefix="later")
        self.assert_refused("comes from another run", shards[0], later[1])

    def test_overlapping_files(self):
        first, _ = write_shards(self.root, 2)
        document = json.loads(first.read_text())
        self.assertTrue(document["shard"]["files"])
        document["shard"]["index"] = 2
        copy = self.root.parent / "copy.json"
        copy.write_text(json.dumps(document))
        self.assert_refused("is in more than one shard", first, copy)

    def test_json_that_is_not_a_shard(self):
        plain = self.root.parent / "plain.json"
        check(self.root, "--output-format", "json", "-o", plain)
        self.assert_refused("is not a shard's result", plain)
        statistics = self.root.parent / "statistics.json"
        check(self.root, "--shard", "1/1", "--statistics", "--output-format", "json", "-o", statistics)
        self.assert_refused("is not a shard's result", statistics)
        broken = self.root.parent / "broken.json"
        broken.write_text('{"shard": {"index": 1}}')
        self.assert_refused("is not a valid shard result", broken)
        self.assert_refused("cannot read", self.root.parent / "absent.json")

    def test_a_shard_of_another_version(self):
        first, second = write_shards(self.root, 2)
        document = json.loads(second.read_text())
        document["shard"]["version"] = "0.0.1"
        second.write_text(json.dumps(document))
        self.assert_refused("was written by torchmigrate 0.0.1", first, second)

    def test_a_tampered_shard(self):
        (shard,) = write_shards(self.root, 1)
        document = json.loads(shard.read_text())
        first = document["shard"]["files"][0]
        for field, value in (("range", [0, len(first["text"]) + 1]), ("severity", 7), ("code", None)):
            with self.subTest(field=field):
                changed = json.loads(json.dumps(document))
                changed["shard"]["files"][0]["diagnostics"][0][field] = value
                tampered = self.root.parent / "tampered.json"
                tampered.write_text(json.dumps(changed))
                self.assert_refused("is not a valid shard result", tampered)

    def test_statistics_in_a_format_without_them(self):
        shards = write_shards(self.root, 1)
        self.assert_refused("--statistics prints text or json", "--statistics", "--output-format", "sarif", *shards)


class ShardJson(unittest.TestCase):
    def test_the_findings_are_the_json_formats(self):
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        (shard,) = write_shards(tree.project, 1)
        document = json.loads(shard.read_text())
        self.assertEqual(document["findings"], json.loads(check(tree.project, "--output-format", "json").stdout))
        self.assertEqual((document["shard"]["index"], document["shard"]["total"]), (1, 1))


if __name__ == "__main__":
    unittest.main()
