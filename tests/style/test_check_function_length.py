#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_function_length.py on planted trees: a long function fails, braces in strings and
comments do not count, a data-only function and a long lambda-free class body pass."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).with_name("check_function_length.py")


class FunctionLength(unittest.TestCase):
    def run_on(self, source):
        with tempfile.TemporaryDirectory() as root:
            (pathlib.Path(root) / "src").mkdir()
            (pathlib.Path(root) / "src" / "a.cpp").write_text(source)
            return subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)

    def test_long_function_fails(self):
        body = "".join(f"  int x{i} = {i};\n" for i in range(80))
        result = self.run_on("namespace n {\nint f(int a) {\n" + body + "  return a;\n}\n}  // namespace n\n")
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("src/a.cpp:2: 83 lines: int f(int a)", result.stdout)

    def test_short_function_with_braces_in_strings_passes(self):
        source = 'int f() {\n  const char* s = "}}}}";  // }\n  /* { */ return 1;\n}\n' + "int g() { return 2; }\n"
        self.assertEqual(self.run_on(source).returncode, 0)

    def test_function_returning_a_raw_string_is_data(self):
        lines = "".join(f"line {i} {{ }}\n" for i in range(100))
        result = self.run_on('const char* css() {\n  return R"css(\n' + lines + ')css";\n}\n')
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_struct_of_short_methods_passes(self):
        methods = "".join(f"  int m{i}() {{ return {i}; }}\n" for i in range(90))
        self.assertEqual(self.run_on("struct S {\n" + methods + "};\n").returncode, 0)


if __name__ == "__main__":
    unittest.main()
