// SPDX-License-Identifier: MIT
// The Python 2 forms the grammar parses without an error, and the Python 3 code around the same
// keywords and literals that must not be taken for one. The text tests that spare the tree
// lookups must never hide a form.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/python/python2_forms.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate::python;

namespace {

// The first form's text and message, or "" when there is none.
std::string first_form(const std::string& source) {
  SyntaxTree tree = SyntaxTree::parse(source);
  std::optional<Python2Form> form = first_python2_form(tree);
  return form ? std::string(form->node.text()) + " | " + form->message : "";
}

}  // namespace

TEST_CASE("Python 2 forms are found, however they are spelled around") {
  CHECK(first_form("print 'hello'\n") ==
        "print 'hello' | Missing parentheses in call to 'print'. Did you mean print(...)?");
  CHECK(first_form("x = 1\nexec code in ns\n").starts_with("exec code in ns | Missing parentheses in call to 'exec'"));
  CHECK(first_form("try:\n    pass\nexcept ValueError, e:\n    pass\n")
            .ends_with("| multiple exception types must be parenthesized"));
  CHECK(first_form("try:\n    pass\nexcept (A,\n        B), e:\n    pass\n")
            .ends_with("| multiple exception types must be parenthesized"));
  CHECK(first_form("try:\n    pass\nexcept A \\\r\n        , e:\n    pass\n")
            .ends_with("| multiple exception types must be parenthesized"));
  CHECK(first_form("raise ValueError, 'bad (value)'\n") == "raise ValueError, 'bad (value)' | invalid syntax");
  CHECK(first_form("raise E(\"a\"), \\\n    'b'\n").ends_with("| invalid syntax"));
  CHECK(first_form("def f(a, (b, c)):\n    pass\n") == "(a, (b, c)) | Function parameters cannot be parenthesized");
  CHECK(first_form("def f(x=\")\",\n      (b, c)):\n    pass\n")
            .ends_with("| Function parameters cannot be parenthesized"));
  CHECK(first_form("f = lambda (x, y): x\n") == "(x, y) | Lambda expression parameters cannot be parenthesized");
  CHECK(first_form("n = 10L\n") == "10L | invalid decimal literal");
  CHECK(first_form("n = 0x1FL\n") == "0x1FL | invalid hexadecimal literal");
  CHECK(first_form("mode = 0777\n")
            .ends_with(
                "| leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers"));
  CHECK(first_form("s = `x`\n").ends_with("| invalid syntax"));
  CHECK(first_form("s = ur'x'\n") == "ur' | invalid syntax");
}

TEST_CASE("Python 3 code around the same keywords and literals has no Python 2 form") {
  CHECK(first_form("print('hello')\nprint (a, b)\nexec('x = 1')\n").empty());
  CHECK(first_form("try:\n    pass\nexcept (A, B) as e:\n    raise ValueError('a, b') from e\n").empty());
  CHECK(first_form("raise ValueError(f\"{x}, {y}\")\nraise\n").empty());
  CHECK(first_form("def f(a, b=g(1), *, c: Tuple[int, int] = (1, 2)) -> None:\n    pass\n").empty());
  CHECK(first_form("def f(\n    a,  # (the first)\n    b,\n):\n    pass\n").empty());
  CHECK(first_form("f = lambda x, y: (x, y)\n").empty());
  CHECK(first_form("n = [0, 1, 10, 1_000, 0x1F, 0o777, 0b1, 0.5, 00.5, 1e-5, 10j, 007.5]\n").empty());
  CHECK(first_form("s = [r'x', b'x', f'x', rb'x', Rb'x', u'x', br\"x\", fr'{x}']\n").empty());
  CHECK(first_form("# print 'comment'\ns = 'print \"x\"'\n").empty());
}
