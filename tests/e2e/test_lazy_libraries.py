# SPDX-License-Identifier: MIT
"""Libraries loaded only when a run needs them. libclang: only when a C/C++/CUDA file is
checked; `--version` and Python-only runs never map it, and a run without it still checks every
Python and build file, with one note saying what to install for the C/C++ ones. libgit2: only
when a run matches configured globs; without it such a run stops with exit 2 and what to install.
.gitignore verdicts are torchmigrate's own: a walk in a repository needs no libgit2."""
import subprocess
import json
import os
import unittest

from tm_e2e import EXAMPLE, TempTree, run

CXX_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh")
NOTE = "libclang could not be loaded ("


def environment(**values):
    env = dict(os.environ)
    env.pop("TORCHMIGRATE_LIBCLANG", None)
    env.pop("TORCHMIGRATE_LIBGIT2", None)
    env.update(values)
    return env


def loaded_libraries(*args, cwd=None, **env):
    """The libraries the dynamic loader opened for one run, from its LD_DEBUG=libs trace."""
    result = run(*args, cwd=cwd, env=environment(LD_DEBUG="libs", **env))
    return [line for line in result.stderr.splitlines() if "calling init:" in line], result


def findings(result):
    return sorted((f["filename"], f["code"], f["location"]["row"], f["location"]["column"], f["message"])
                  for f in json.loads(result.stdout))


class LazyLibclang(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree(EXAMPLE)
        self.addCleanup(self.tree.cleanup)

    def check(self, *args, **env):
        return run("check", "--no-cache", "--output-format", "json", *args, self.tree.project,
                   env=environment(**env))

    def test_version_and_python_runs_never_load_libclang(self):
        for args in (["--version"], ["check", "--no-cache", self.tree.project / "src/legacy_models/models.py"]):
            with self.subTest(args=args):
                libraries, result = loaded_libraries(*args)
                self.assertTrue(libraries, "LD_DEBUG=libs traced the run: " + result.stderr[:500])
                self.assertFalse([line for line in libraries if "libclang" in line or "libLLVM" in line], libraries)
        # The trace sees libclang when a C++ file is checked, so the absence above means something.
        libraries, _ = loaded_libraries("check", "--no-cache", self.tree.project / "csrc/ops.cpp")
        self.assertTrue([line for line in libraries if "libclang" in line], libraries)

    def test_without_libclang_everything_else_is_checked_and_cxx_gets_one_note(self):
        normal = self.check()
        missing = self.check(TORCHMIGRATE_LIBCLANG="/nonexistent/libclang.so.1")
        self.assertEqual(1, normal.returncode, normal.stderr)
        self.assertEqual(1, missing.returncode, missing.stderr)
        self.assertNotIn("Internal error", missing.stdout + missing.stderr)

        def is_cxx(finding):
            return finding[0].endswith(CXX_SUFFIXES)

        expected = [f for f in findings(normal) if not is_cxx(f)]
        notes = [f for f in findings(missing) if f[4].startswith(NOTE)]
        self.assertEqual(expected, [f for f in findings(missing) if not is_cxx(f)])
        self.assertEqual(1, len(notes), notes)
        filename, code, row, column, message = notes[0]
        self.assertTrue(is_cxx(notes[0]), filename)
        self.assertEqual(("TM900", 1, 1), (code, row, column))
        self.assertIn("TORCHMIGRATE_LIBCLANG: /nonexistent/libclang.so.1: cannot open shared object file", message)
        self.assertRegex(message, r"install libclang1-\d+ to check C/C\+\+ sources; not checked "
                                  r"\(this file and \d+ other C/C\+\+ files?\)$")
        self.assertEqual([notes[0]], [f for f in findings(missing) if is_cxx(f)])

    def test_the_note_reads_once_in_the_text_report(self):
        result = run("check", "--no-cache", self.tree.project,
                     env=environment(TORCHMIGRATE_LIBCLANG="/nonexistent/libclang.so.1"))
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertEqual(1, result.stdout.count(NOTE), result.stdout)
        self.assertIn("TM900", result.stdout)

    def test_with_libclang_the_cxx_findings_are_found(self):
        cxx = [f for f in findings(self.check()) if f[0].endswith(CXX_SUFFIXES)]
        codes = {(os.path.basename(f[0]), f[1]) for f in cxx}
        self.assertIn(("dlpack_bridge.cpp", "TM151"), codes)
        self.assertIn(("ops.cpp", "TM152"), codes)
        self.assertTrue(any("kDLGPU" in f[4] for f in cxx), cxx)
        self.assertFalse([f for f in cxx if f[4].startswith(NOTE)])

    def test_a_file_that_is_not_libclang_is_named(self):
        missing = self.check(TORCHMIGRATE_LIBCLANG="libm.so.6")
        notes = [f for f in findings(missing) if f[4].startswith(NOTE)]
        self.assertEqual(1, len(notes), notes)
        self.assertIn("libm.so.6: has no clang_", notes[0][4])



ONE_FINDING = "import torch\ntorch.onnx.dynamo_export(m, x)\n"
REPOSITORY = {".gitignore": "generated/\n", "model.py": ONE_FINDING, "generated/copy.py": ONE_FINDING}


class LazyLibgit2(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        for relative, text in REPOSITORY.items():
            self.tree.write("repo/" + relative, text)
        subprocess.run(["git", "init", "-q", str(self.tree.root / "repo")], check=True)
        self.repo = self.tree.root / "repo"

    def check(self, *paths, **env):
        return run("check", "--no-cache", "--output-format", "json", *paths, env=environment(**env))

    def test_only_a_configured_glob_loads_libgit2(self):
        for args in (["--version"], ["check", "--no-cache", self.repo / "model.py"],
                     ["check", "--no-cache", "--force-exclude", self.repo / "model.py"],
                     ["check", "--no-cache", self.repo]):
            with self.subTest(args=args):
                libraries, result = loaded_libraries(*args)
                self.assertTrue(libraries, "LD_DEBUG=libs traced the run: " + result.stderr[:500])
                self.assertFalse([line for line in libraries if "libgit2" in line], libraries)
        libraries, _ = loaded_libraries("check", "--no-cache", "--extend-exclude", "generated_*.py", self.repo)
        self.assertTrue([line for line in libraries if "libgit2" in line], libraries)

    def test_a_walk_honours_gitignore_without_libgit2(self):
        result = self.check(self.repo, TORCHMIGRATE_LIBGIT2="/nonexistent/libgit2.so.1.5")
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertEqual(["model.py"], sorted({os.path.basename(f["filename"]) for f in json.loads(result.stdout)}))

    def test_without_libgit2_a_configured_glob_stops_with_what_to_install(self):
        result = self.check("--extend-exclude", "generated_*.py", self.repo,
                            TORCHMIGRATE_LIBGIT2="/nonexistent/libgit2.so.1.5")
        self.assertEqual(2, result.returncode, result.stdout)
        self.assertEqual("", result.stdout)
        self.assertRegex(result.stderr, r"error: libgit2 could not be loaded \(TORCHMIGRATE_LIBGIT2: "
                                        r"/nonexistent/libgit2.so.1.5: .*\); .* install libgit2-[0-9.]+")
        self.assertNotIn("terminate called", result.stderr)


if __name__ == "__main__":
    unittest.main()
