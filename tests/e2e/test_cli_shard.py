# SPDX-License-Identifier: MIT
"""`--shard K/N`: each CI job checks its share. For N = 1, 2 and 7 the shards are disjoint,
together check every file, and their findings together are exactly the single run's, on the
example project and on a generated tree of 5,000 files."""
import json
import os
import random
import unittest

from tm_e2e import EXAMPLE, TempTree, run

SOURCE = "import torch\nep = torch.export.export(model, (x,))\n"


def findings(cwd, *args):
    result = run("check", "--no-cache", "--output-format", "json", *args, ".", cwd=cwd)
    document = json.loads(result.stdout)
    # A shard's JSON wraps the findings with what `merge` needs (tests/e2e/test_merge.py).
    every = document["findings"] if any(a.startswith("--shard") for a in args) else document
    return sorted((f["filename"], f["location"]["row"], f["code"]) for f in every)


def files(cwd, *args):
    return run("check", "--show-files", *args, ".", cwd=cwd, check_exit=0).stdout.splitlines()


class Shards(unittest.TestCase):
    def assert_shards_cover(self, root):
        every_file = files(root)
        every_finding = findings(root)
        self.assertTrue(every_finding)
        for total in (1, 2, 7):
            with self.subTest(total=total):
                shard_files = [files(root, "--shard", f"{k}/{total}") for k in range(1, total + 1)]
                self.assertEqual(sorted(f for share in shard_files for f in share), sorted(every_file))
                self.assertEqual(len(set().union(*map(set, shard_files))), len(every_file))  # disjoint
                merged = sorted(f for k in range(1, total + 1) for f in findings(root, f"--shard={k}/{total}"))
                self.assertEqual(merged, every_finding)

    def test_the_example_project(self):
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        self.assert_shards_cover(tree.project)

    def test_a_generated_tree_of_5000_files_is_split_evenly_by_size(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        rng = random.Random(8)
        for i in range(5000):
            padding = "x = 1\n" * rng.randrange(0, 40)
            tree.write(f"pkg{i % 50}/m{i}.py", padding + (SOURCE if i % 3 == 0 else ""))
        self.assert_shards_cover(tree.root)
        sizes = []
        for k in range(1, 8):
            sizes.append(sum((tree.root / f).stat().st_size for f in files(tree.root, "--shard", f"{k}/7")))
        self.assertLess(max(sizes) - min(sizes), max(sizes) * 0.05)

    def test_the_environment_variable_and_bad_values(self):
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        by_flag = files(tree.project, "--shard", "2/3")
        by_env = run("check", "--show-files", ".", cwd=tree.project, check_exit=0,
                     env=dict(os.environ, TORCHMIGRATE_SHARD="2/3")).stdout.splitlines()
        self.assertEqual(by_env, by_flag)
        for bad in ("0/3", "4/3", "2", "a/b", "1/0"):
            with self.subTest(value=bad):
                result = run("check", "--shard", bad, ".", cwd=tree.project, check_exit=2)
                self.assertIn("--shard takes K/N", result.stderr)


if __name__ == "__main__":
    unittest.main()
