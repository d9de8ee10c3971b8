# SPDX-License-Identifier: MIT
"""Files named on the command line that no front reads are skipped with one note, not silently
reported as "All checks passed!"."""
import unittest

from tm_e2e import TempTree, run


class ExplicitFilesOfNoKind(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def test_one_note_names_the_skipped_files(self):
        for name in ("README.md", "notes.txt", "logo.svg", "data.csv"):
            self.tree.write(name, "torch.onnx.export(model, x, 'f.onnx')\n")
        self.tree.write("export.py", "import torch\ntorch.onnx.export(model, (x,), 'f.onnx', opset_version=17)\n")
        result = run("check", "--no-cache", "README.md", "notes.txt", "logo.svg", "data.csv", "export.py",
                     cwd=self.tree.root)
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertIn("export.py:2:1: TM302", result.stdout)
        notes = [line for line in result.stderr.splitlines() if "named on the command line" in line]
        self.assertEqual(1, len(notes), result.stderr)
        self.assertIn("4 files named on the command line are not Python", notes[0])
        self.assertIn("README.md, notes.txt, logo.svg, ...", notes[0])

    def test_a_lone_unknown_file_is_not_a_clean_check_in_disguise(self):
        self.tree.write("notes.txt", "kDLGPU\n")
        result = run("check", "--no-cache", "notes.txt", cwd=self.tree.root)
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertIn("1 file named on the command line is not Python", result.stderr)
        self.assertIn("(notes.txt); skipped", result.stderr)


if __name__ == "__main__":
    unittest.main()
