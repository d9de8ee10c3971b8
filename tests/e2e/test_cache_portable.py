# SPDX-License-Identifier: MIT
"""The result cache on shared storage: the same project in two different directories, checked
from inside or by an absolute path, finds its entries; a changed file does not."""
import shutil
import unittest

from tm_e2e import EXAMPLE, TempTree, cache_keys as entries, run


class PortableCacheKeys(unittest.TestCase):
    def test_two_copies_of_a_project_share_the_cache(self):
        tree = TempTree(EXAMPLE)
        self.addCleanup(tree.cleanup)
        first = tree.project
        second = tree.root / "elsewhere" / "checkout"
        shutil.copytree(first, second)
        cache = tree.root / "shared-cache"

        report = run("check", "--cache-dir", cache, ".", cwd=first).stdout
        stored = entries(cache)
        self.assertTrue(stored)
        self.assertEqual(run("check", "--cache-dir", cache, ".", cwd=second).stdout, report)
        self.assertEqual(entries(cache), stored)  # every file was a hit
        run("check", "--cache-dir", cache, second, cwd=tree.root)
        self.assertEqual(entries(cache), stored)

        # A changed file is a miss: its entry is replaced, and its new finding is reported.
        module = second / "src" / "legacy_models" / "quantization.py"
        module.write_text(module.read_text() + "\nimport torch\ntorch.ao.quantization.quantize_dynamic(m)\n")
        changed = run("check", "--cache-dir", cache, ".", cwd=second).stdout
        self.assertEqual(len(entries(cache)), len(stored))
        self.assertEqual(len(set(entries(cache)) - set(stored)), 1)
        self.assertNotEqual(changed, report)


if __name__ == "__main__":
    unittest.main()
