# SPDX-License-Identifier: MIT
"""`--version` prints the one version number set in CMakeLists.txt, plus the git revision of the
checkout the binary was built from."""
import re
import subprocess
import unittest

from tm_e2e import SOURCE_DIR, run


class Version(unittest.TestCase):
    def test_version_comes_from_cmake_and_git(self):
        cmake = (SOURCE_DIR / "CMakeLists.txt").read_text()
        version = re.search(r"project\(torchmigrate VERSION ([0-9.]+)", cmake).group(1)
        result = run("--version", check_exit=0)
        match = re.fullmatch(r"torchmigrate (\S+)(?: \(([0-9a-f]{7,40})\))?\n", result.stdout)
        self.assertIsNotNone(match, result.stdout)
        self.assertEqual(version, match.group(1))
        git = subprocess.run(["git", "-C", str(SOURCE_DIR), "rev-parse", "HEAD"], capture_output=True, text=True)
        if git.returncode == 0:
            self.assertIsNotNone(match.group(2), "built from a checkout: the revision is shown")
            # The binary may be a commit behind a checkout that moved since the build; it is a
            # revision of this repository either way.
            known = subprocess.run(["git", "-C", str(SOURCE_DIR), "cat-file", "-e", match.group(2) + "^{commit}"])
            self.assertEqual(0, known.returncode, match.group(2))

    def test_the_short_path_answers_as_the_command_line_does(self):
        # `--version` alone is answered before the command line is built; followed by a
        # subcommand, the parsed command line answers.
        alone = run("--version", check_exit=0)
        parsed = run("--version", "check", check_exit=0)
        self.assertEqual(alone.stdout, parsed.stdout)
        self.assertEqual("", alone.stderr)


if __name__ == "__main__":
    unittest.main()
