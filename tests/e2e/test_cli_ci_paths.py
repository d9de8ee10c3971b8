# SPDX-License-Identifier: MIT
"""CI reports and baselines give paths relative to the repository root, so the same check gives
the same report from the root, from a subfolder and from outside the repository."""
import json
import os
import subprocess
import unittest

from test_cli_options import SOURCE
from tm_e2e import BINARY, TempTree

CI_FORMATS = ["sarif", "gitlab", "github", "junit", "markdown"]


class CiPaths(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.repo = self.tree.root / "repo"
        self.tree.write("repo/pkg/sub/a.py", SOURCE)
        self.tree.write("repo/pkg/b.py", SOURCE)
        subprocess.run(["git", "init", "-q", str(self.repo)], check=True)
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("GITHUB_WORKSPACE", "CI_PROJECT_DIR")}

    def check(self, *args, cwd, env=None, exit_code=1):
        result = subprocess.run([BINARY, "check", *args], cwd=cwd, env=env or self.env, capture_output=True,
                                text=True, timeout=120)
        self.assertEqual(result.returncode, exit_code, f"{args} in {cwd}\n{result.stdout}\n{result.stderr}")
        return result

    def places(self):
        """The same files named from the root, from a subfolder and from outside the repository."""
        return [(self.repo, ["pkg"]), (self.repo / "pkg", ["."]), (self.repo / "pkg" / "sub", ["..", "../b.py"]),
                (self.tree.root, [str(self.repo / "pkg")]), ("/", [str(self.repo / "pkg")])]

    def test_every_ci_format_is_identical_from_anywhere(self):
        for format_name in CI_FORMATS:
            with self.subTest(format=format_name):
                outputs = {str(cwd): self.check(*paths, "--output-format", format_name, cwd=cwd).stdout
                           for cwd, paths in self.places()}
                reference = outputs[str(self.repo)]
                self.assertIn("pkg/sub/a.py", reference)
                self.assertNotIn(str(self.tree.root), reference.replace(self.repo.as_uri(), ""))
                for cwd, output in outputs.items():
                    self.assertEqual(output, reference, f"{format_name} from {cwd}")

    def test_sarif_root_is_the_repository(self):
        log = json.loads(self.check(str(self.repo / "pkg"), "--output-format", "sarif", cwd="/").stdout)
        run = log["runs"][0]
        self.assertEqual(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], self.repo.as_uri() + "/")
        uris = {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in run["results"]}
        self.assertEqual(uris, {"pkg/b.py", "pkg/sub/a.py"})

    def test_ci_variables_and_project_root_choose_the_root(self):
        gitlab = lambda result: sorted({entry["location"]["path"] for entry in json.loads(result.stdout)})
        env = {**self.env, "CI_PROJECT_DIR": str(self.repo / "pkg")}
        self.assertEqual(gitlab(self.check("sub", "--output-format", "gitlab", cwd=self.repo / "pkg", env=env)),
                         ["sub/a.py"])
        env = {**self.env, "GITHUB_WORKSPACE": str(self.repo)}
        self.assertEqual(gitlab(self.check(".", "--output-format", "gitlab", cwd=self.repo / "pkg", env=env)),
                         ["pkg/b.py", "pkg/sub/a.py"])
        # A workspace that does not hold the checked files is not their root.
        env = {**self.env, "GITHUB_WORKSPACE": str(self.tree.root / "elsewhere")}
        self.assertEqual(gitlab(self.check(".", "--output-format", "gitlab", cwd=self.repo / "pkg", env=env)),
                         ["pkg/b.py", "pkg/sub/a.py"])
        self.assertEqual(gitlab(self.check("sub", "--output-format", "gitlab", "--project-root", "sub",
                                           cwd=self.repo / "pkg", env=env)), ["a.py"])

    def test_a_baseline_written_in_one_folder_works_from_another(self):
        self.check("sub", "--write-baseline", "../baseline.json", "--extend-select", "TM305",
                   cwd=self.repo / "pkg", exit_code=0)
        recorded = json.loads((self.repo / "baseline.json").read_text())["findings"]
        self.assertEqual({entry["path"] for entry in recorded}, {"pkg/sub/a.py"})
        for cwd, target, baseline in [(self.repo, "pkg/sub", "baseline.json"),
                                      (self.repo / "pkg" / "sub", ".", "../../baseline.json"),
                                      ("/", str(self.repo / "pkg" / "sub"), str(self.repo / "baseline.json"))]:
            with self.subTest(cwd=str(cwd)):
                result = self.check(target, "--extend-select", "TM305", "--baseline", baseline, "--output-format",
                                    "json", cwd=cwd)
                self.assertEqual(sorted(finding["code"] for finding in json.loads(result.stdout)),
                                 ["TM102", "TM102"])
                self.assertNotIn("matched", result.stderr)

    def test_a_baseline_that_matches_nothing_says_so(self):
        self.check("pkg", "--write-baseline", "baseline.json", "--project-root", "pkg", cwd=self.repo, exit_code=0)
        result = self.check("pkg", "--baseline", "baseline.json", cwd=self.repo)
        self.assertIn("warning: none of the 2 findings recorded in the baseline baseline.json matched", result.stderr)
        self.assertIn(f"relative to {self.repo}", result.stderr)
        # With the root it was written for, it hides what it recorded and says nothing more.
        quiet = self.check("pkg", "--baseline", "baseline.json", "--project-root", "pkg", cwd=self.repo)
        self.assertNotIn("matched", quiet.stderr)
        self.assertIn("2 findings hidden by the baseline", quiet.stderr)


if __name__ == "__main__":
    unittest.main()
