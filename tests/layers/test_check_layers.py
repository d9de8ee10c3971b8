# SPDX-License-Identifier: MIT
"""check_layers.py on a copy of the tree with one planted violation each: every one must fail."""

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "check_layers.py"


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="check_layers_")
        self.root = Path(self.temp.name)
        shutil.copytree(SOURCE_DIR / "include", self.root / "include")
        shutil.copytree(SOURCE_DIR / "src", self.root / "src")
        (self.root / "cmake").mkdir()
        shutil.copy(SOURCE_DIR / "cmake" / "layers.txt", self.root / "cmake" / "layers.txt")

    def tearDown(self):
        self.temp.cleanup()

    def run_check(self, script=SCRIPT):
        return subprocess.run([sys.executable, str(script), "--root", str(self.root)], capture_output=True,
                              text=True, check=False)

    def plant(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        previous = path.read_text() if path.exists() else ""
        path.write_text(previous + "\n" + text + "\n")

    def assert_fails(self, *fragments, script=SCRIPT):
        result = self.run_check(script)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, result.stdout)

    def test_copy_passes(self):
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_planted_lines(self):
        # (file, planted line, what the report must say); each planted alone into a clean copy.
        planted = [
            ("src/core/source_file.cpp", '#include "torchmigrate/engine/lint/linter.hpp"',
             "src/core/source_file.cpp:{line}: core source includes torchmigrate/engine/lint/linter.hpp"),
            ("include/torchmigrate/python/semantic_model.hpp", "#include <torchmigrate/buildfiles/pep440.hpp>",
             "include/torchmigrate/python/semantic_model.hpp:{line}: python header includes"),
            ("include/torchmigrate/engine/lint/linter.hpp", '#include "torchmigrate/cxx/source_scan.hpp"',
             "cxx is a private dependency of engine: only src/engine/ may include it"),
            ("include/torchmigrate/engine/lint/linter.hpp", "#include <tree_sitter/api.h>",
             "only the python layer may include tree_sitter/ headers"),
            ("src/output/sarif.cpp", "#include <clang-c/Index.h>", "only the cxx layer may include clang-c/ headers"),
            ("src/checks/registry.cpp", "static CXCursor planted_cursor;",
             "src/checks/registry.cpp: uses the clang-c API (CXCursor)"),
            ("src/lsp/server.cpp", "static void planted(TSNode node) { ts_node_child(node, 0); }",
             "src/lsp/server.cpp: uses the tree_sitter API (TSNode, ts_node_child)"),
            ("src/plugins/plugin.cpp", '#include "torchmigrate/core/fix.hpp"',
             "src/plugins: folder of an undeclared layer"),
        ]
        for relative, text, expected in planted:
            with self.subTest(relative=relative, text=text):
                path = self.root / relative
                original = path.read_text() if path.exists() else None
                self.plant(relative, text)
                try:
                    self.assert_fails(expected.format(line=path.read_text().count("\n")))
                finally:
                    if original is None:
                        shutil.rmtree(path.parent)
                    else:
                        path.write_text(original)

    def test_private_dependency_allowed_in_sources(self):
        self.plant("src/engine/lint/linter.cpp", '#include "torchmigrate/cxx/source_scan.hpp"')
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_stale_allow_list_entry(self):
        # The real list is empty: a copy of the script gets one entry.
        script = self.root / "check_layers.py"
        text = SCRIPT.read_text()
        self.assertIn("API_ALLOW_LIST = {}", text)
        script.write_text(text.replace("API_ALLOW_LIST = {}",
                                       'API_ALLOW_LIST = {"src/engine/lint/add_noqa.cpp": "tree_sitter"}'))
        noqa = self.root / "src/engine/lint/add_noqa.cpp"
        noqa.write_text("static void planted(TSNode node) { ts_node_child(node, 0); }\n")
        result = self.run_check(script)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        noqa.write_text("// no tree-sitter here (ts_node_child)\n")
        self.assert_fails("src/engine/lint/add_noqa.cpp: no longer uses the tree_sitter API", script=script)

    def test_dependency_on_a_higher_layer_in_the_graph(self):
        layers = self.root / "cmake" / "layers.txt"
        layers.write_text(layers.read_text().replace("\nlayer core\n", "\nlayer core public engine\n"))
        self.assert_fails("depends on engine, which is not declared above it")


if __name__ == "__main__":
    unittest.main()
