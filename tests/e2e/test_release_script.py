# SPDX-License-Identifier: MIT
"""scripts/release.sh refuses what would make a wrong release, before building anything: a
version other than CMakeLists.txt's, a tree with uncommitted changes, an existing tag, and a
build without a CPack configuration. It is shellcheck-clean where shellcheck is installed."""
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import SOURCE_DIR

SCRIPT = SOURCE_DIR / "scripts" / "release.sh"


def project_version():
    return re.search(r"project\(torchmigrate VERSION (\d+\.\d+\.\d+)", (SOURCE_DIR / "CMakeLists.txt").read_text()).group(1)


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=release test", "-c", "user.email=release@test.invalid", *args], cwd=cwd,
                   check=True, capture_output=True)


class ReleaseScript(unittest.TestCase):
    def release(self, cwd, *args):
        return subprocess.run(["bash", str(cwd / "scripts" / "release.sh"), *args], cwd=cwd, capture_output=True,
                              text=True, timeout=600)

    def repository(self, cmake_lists):
        """A small git repository holding the script and `cmake_lists`, committed."""
        root = Path(tempfile.mkdtemp(prefix="torchmigrate-release-"))
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)
        (root / "scripts").mkdir()
        shutil.copy(SCRIPT, root / "scripts" / "release.sh")
        (root / "CMakeLists.txt").write_text(cmake_lists)
        git(root, "init", "-q")
        git(root, "add", ".")
        git(root, "commit", "-q", "-m", "initial")
        return root

    def test_a_wrong_version_is_refused_before_building(self):
        root = self.repository(f"project(torchmigrate VERSION {project_version()} LANGUAGES NONE)\n")
        result = self.release(root, "99.0.0")
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"version 99.0.0 is not the one in CMakeLists.txt ({project_version()})", result.stderr)
        self.assertFalse((root / "build-release").exists())
        self.assertEqual(self.release(root).returncode, 2)  # no version at all

    def test_the_repository_version_is_the_one_the_script_reads(self):
        result = subprocess.run(["bash", str(SCRIPT), "0.0.0-not-this"], cwd=SOURCE_DIR, capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"CMakeLists.txt ({project_version()})", result.stderr)

    def test_uncommitted_changes_and_an_existing_tag_are_refused(self):
        root = self.repository("project(torchmigrate VERSION 1.2.3 LANGUAGES NONE)\n")
        (root / "notes.txt").write_text("not committed\n")
        result = self.release(root, "1.2.3")
        self.assertEqual(result.returncode, 1)
        self.assertIn("uncommitted changes", result.stderr)
        (root / "notes.txt").unlink()
        git(root, "tag", "v1.2.3")
        result = self.release(root, "1.2.3")
        self.assertEqual(result.returncode, 1)
        self.assertIn("tag v1.2.3 exists already", result.stderr)

    @unittest.skipUnless(shutil.which("cmake") and shutil.which("ninja"), "cmake and ninja build the test project")
    def test_a_build_without_packaging_is_refused(self):
        root = self.repository("cmake_minimum_required(VERSION 3.20)\nproject(torchmigrate VERSION 1.2.3 LANGUAGES NONE)\n")
        result = self.release(root, "1.2.3")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no CPack configuration", result.stderr)
        self.assertFalse(list((root / "build-release").glob("*.deb")))

    def test_shellcheck(self):
        if shutil.which("shellcheck") is None:
            self.skipTest("shellcheck is not installed")
        result = subprocess.run(["shellcheck", str(SCRIPT), str(SOURCE_DIR / "scripts" / "bootstrap.sh")],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
