# SPDX-License-Identifier: MIT
"""Directories the user may not list or search: each is skipped with one error line, the rest of
the tree is checked. Run as root, the binary is started as an unprivileged user (root may read
every directory); without a way to drop privileges the test is skipped."""
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import BINARY

LEGACY = "import torch\nmodel = torch.quantization.prepare(model)\n"


def unprivileged(command):
    """`command` as a user who does not own the tree, or None when that cannot be arranged."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]


class UnreadableDirectories(unittest.TestCase):
    def test_each_closed_directory_is_one_error_and_the_rest_is_checked(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            os.chmod(scratch, 0o755)
            binary = scratch / "torchmigrate"
            shutil.copy(shutil.which(BINARY) or BINARY, binary)  # a place the other user may run it from
            tree = scratch / "tree"
            for name in ("open", "unlistable", "unsearchable"):
                (tree / name).mkdir(parents=True)
                (tree / name / "model.py").write_text(LEGACY)
            os.chmod(tree, 0o755)
            os.chmod(tree / "open", 0o755)
            os.chmod(tree / "unlistable", 0o711 if os.geteuid() == 0 else 0o311)  # searchable, not readable
            os.chmod(tree / "unsearchable", 0o744 if os.geteuid() == 0 else 0o644)  # readable, not searchable
            command = unprivileged([str(binary), "check", ".", "--no-cache", "--output-format", "concise",
                                    "--select", "ALL"])
            if command is None:
                self.skipTest("running as root without setpriv: every directory would be readable")
            try:
                result = subprocess.run(command, cwd=tree, capture_output=True, text=True, timeout=120)
            finally:
                for name in ("unlistable", "unsearchable"):
                    os.chmod(tree / name, 0o755)
            self.assertIn("open/model.py", result.stdout)
            self.assertNotIn("unlistable/model.py", result.stdout)
            self.assertNotIn("unsearchable/model.py", result.stdout)
            errors = [line for line in result.stderr.splitlines() if "cannot be listed" in line]
            self.assertEqual(sorted(errors), [
                "torchmigrate: error: ./unlistable: cannot be listed (permission denied); skipped",
                "torchmigrate: error: ./unsearchable: cannot be listed (permission denied); skipped",
            ], result.stderr)


if __name__ == "__main__":
    unittest.main()
