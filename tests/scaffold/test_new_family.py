#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/new-family.py end to end: in a copy of the source tree, scaffold a family, build it
(the build's catalog check loads the new rule), pass its generated fixture, and validate the
catalog against the schema.

    python3 tests/scaffold/test_new_family.py SOURCE_DIR

Builds only what the fixtures need, in a fresh build directory (Release, warnings as errors):
several minutes on two cores, so ctest labels it `scaffold`.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])


def run(argv, cwd, **kwargs):
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, argv))} failed ({result.returncode}):\n"
                             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


class NewFamily(unittest.TestCase):
    def test_scaffolded_family_builds_and_passes_its_fixture(self):
        with tempfile.TemporaryDirectory() as scratch:
            tree = pathlib.Path(scratch) / "tree"
            files = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], SOURCE).stdout.split("\0")
            for name in filter(None, files):
                source = SOURCE / name
                if source.is_file():
                    (tree / name).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, tree / name)
            os.symlink(SOURCE / "node_modules", tree / "node_modules")  # the grammar and the validator

            result = run([sys.executable, "scripts/new-family.py", "call-report", "--code", "TM099",
                          "--callee", "torch.nn.functional.scaffolded"], tree)
            self.assertIn("src/checks/python/call_report_check.cpp", result.stdout)
            registry = (tree / "src/checks/registry.cpp").read_text()
            self.assertIn('built.add_python("call-report", make_call_report_check);', registry)
            # Alphabetical: after autograd-function-mark-dirty, before cmake-removed-targets.
            self.assertLess(registry.index("autograd-function-mark-dirty"), registry.index('"call-report"'))
            self.assertLess(registry.index('"call-report"'), registry.index("cmake-removed-targets"))

            run(["node", "tests/catalog/validate_catalog.mjs", "rules"], tree)
            build = tree / "build"
            run(["cmake", "-S", ".", "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 "-DTORCHMIGRATE_WERROR=ON", "-DTORCHMIGRATE_BUILD_TESTS=ON", "-DTORCHMIGRATE_BUILD_BENCHMARKS=OFF"],
                tree)
            run(["cmake", "--build", build, "--target", "catalog_checked", "fixtures", "--parallel",
                 str(os.cpu_count() or 2)], tree)
            # Every fixture, the generated ones among them, with the new family registered.
            fixtures = run([build / "tests" / "fixtures", "-s"], tree)
            self.assertIn("python/TM099/uses.py", fixtures.stdout)
            self.assertIn("python/TM099/negatives.py", fixtures.stdout)
            self.assertIn("All tests passed", fixtures.stdout)
            self.assertFalse((tree / "tests/fixtures/python/TM099/uses.py.snap.new").exists())


if __name__ == "__main__":
    unittest.main()
