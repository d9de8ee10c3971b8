// SPDX-License-Identifier: MIT
// What a slice keeps: the statements with an anchor word, what their names and guards need, and
// what makes the slice parse; and the texts it refuses.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/python/statement_slice.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate::python;

namespace {

// The kept lines, in order; "<none>" when the text is refused.
std::string kept(const std::string& text, const std::vector<std::string>& anchors) {
  std::optional<std::vector<SliceSpan>> spans = slice_statements(text, anchors);
  if (!spans) return "<none>";
  std::string out;
  for (const SliceSpan& span : *spans) out += text.substr(span.start, span.end - span.start);
  return out;
}

// Filler that a slice leaves out, so that what it keeps stays under half of the text.
std::string filler(int functions) {
  std::string out;
  for (int i = 0; i < functions; ++i) {
    out += "def helper" + std::to_string(i) + "(value):\n    total = value * 2\n    return total + 1\n";
  }
  return out;
}

}  // namespace

TEST_CASE("A slice keeps the anchor statement, its headers, the imports and each block's first statement") {
  std::string text = "import torch\n" + filler(6) +
                     "def main(args):\n"
                     "    print('start')\n"
                     "    model = build(args)\n"
                     "    if torch.cuda.is_available():\n"
                     "        log('cuda')\n"
                     "        torch.backends.cuda.matmul.allow_tf32 = True\n"
                     "    train(model)\n";
  CHECK(kept(text, {"allow_tf32"}) ==
        "import torch\n"
        "def main(args):\n"
        "    print('start')\n"
        "    if torch.cuda.is_available():\n"
        "        log('cuda')\n"
        "        torch.backends.cuda.matmul.allow_tf32 = True\n");
}

TEST_CASE("A slice keeps what binds the names the anchor statement uses, in the scopes that see it") {
  std::string text = "import torch\n" + filler(8) +
                     "def other():\n"
                     "    matmul = None\n"
                     "    return matmul\n"
                     "def main(matmul):\n"
                     "    print('start')\n"
                     "    for step in range(3):\n"
                     "        matmul = step\n"
                     "    matmul.allow_tf32 = True\n";
  // The loop rebinds `matmul` in main; `other`'s local does not reach main.
  CHECK(kept(text, {"allow_tf32"}) ==
        "import torch\n"
        "def main(matmul):\n"
        "    print('start')\n"
        "    for step in range(3):\n"
        "        matmul = step\n"
        "    matmul.allow_tf32 = True\n");
}

TEST_CASE("Every binding of a name an import binds is kept: a fix may spell a name through it") {
  std::string text = "import torch\n" + filler(8) +
                     "def other():\n"
                     "    log('other')\n"
                     "    torch = None\n"
                     "def main():\n"
                     "    torch.backends.cuda.matmul.allow_tf32 = True\n";
  CHECK(kept(text, {"allow_tf32"}) ==
        "import torch\n"
        "def other():\n"
        "    log('other')\n"
        "    torch = None\n"
        "def main():\n"
        "    torch.backends.cuda.matmul.allow_tf32 = True\n");
}

TEST_CASE("Several statements on a line may import or bind anything") {
  std::string text = "sys.path.insert(0, '.'); import torch as t\n" + filler(8) +
                     "def main():\n"
                     "    print('start')\n"
                     "    log('t'); t = make()\n"
                     "    t.backends.cuda.matmul.allow_tf32 = True\n";
  CHECK(kept(text, {"allow_tf32"}) ==
        "sys.path.insert(0, '.'); import torch as t\n"
        "def main():\n"
        "    print('start')\n"
        "    log('t'); t = make()\n"
        "    t.backends.cuda.matmul.allow_tf32 = True\n");
}

TEST_CASE("Aliases and imports of an anchor make their names anchors") {
  std::string text = "from torch.jit import script as s\n" + filler(8) +
                     "def f(m):\n"
                     "    print(m)\n"
                     "    return s(m)\n"
                     "def g(m):\n"
                     "    t = torch.jit.trace\n"
                     "    print(m)\n"
                     "    return t(m)\n";
  std::string slice = kept(text, {"script", "trace"});
  CHECK(slice.find("    return s(m)\n") != std::string::npos);
  CHECK(slice.find("    return t(m)\n") != std::string::npos);
  CHECK(slice.find("helper") == std::string::npos);
}

TEST_CASE("A dictionary assigned in an anchor statement makes its name an anchor") {
  std::string text = "import torch\n" + filler(8) +
                     "def configure():\n"
                     "    options = {'allow_tf32': True}\n"
                     "    print(options)\n"
                     "    torch._dynamo.config.update(options)\n";
  std::string slice = kept(text, {"allow_tf32"});
  CHECK(slice.find("    torch._dynamo.config.update(options)\n") != std::string::npos);
  CHECK(slice.find("    print(options)\n") != std::string::npos);
}

TEST_CASE("A slice keeps the guards compatibility code is read from") {
  // Every line is needed: the flag's value and the helper's return, the early exits before the
  // setting, and the handler of its try.
  std::string guarded = R"py(TORCH_GE_29 = torch_version() >= (2, 9)
def torch_version():
    print('asked')
    return tuple(int(p) for p in torch.__version__.split('.')[:2])
def setup(args):
    print('setup')
    if TORCH_GE_29:
        return
    if args.fast:
        log('fast')
        raise SystemExit
    try:
        log('try')
        torch.backends.cuda.matmul.allow_tf32 = True
    except AttributeError:
        log('old')
        fallback = None
)py";
  CHECK(kept("import torch\n" + filler(8) + guarded, {"allow_tf32"}) == "import torch\n" + guarded);
}

TEST_CASE("A kept clause keeps the statement it continues, and a kept try its handlers") {
  std::string text = "import torch\n" + filler(8) +
                     "if ready:\n"
                     "    start()\n"
                     "    more()\n"
                     "elif other:\n"
                     "    wait()\n"
                     "else:\n"
                     "    torch.jit.script(model)\n";
  CHECK(kept(text, {"script"}) ==
        "import torch\n"
        "if ready:\n"
        "    start()\n"
        "elif other:\n"
        "    wait()\n"
        "else:\n"
        "    torch.jit.script(model)\n");
}

TEST_CASE("Decorators stay with their function, and a decorated function keeps its decorators") {
  std::string text = "import torch\n" + filler(8) +
                     "@torch.jit.script\n"
                     "@other\n"
                     "def kernel(x):\n"
                     "    y = x + 1\n"
                     "    return y\n";
  CHECK(kept(text, {"script"}) ==
        "import torch\n"
        "@torch.jit.script\n"
        "@other\n"
        "def kernel(x):\n"
        "    y = x + 1\n");
}

TEST_CASE("Strings, comments and continuations do not end or start statements") {
  std::string text = "import torch\n" + filler(8) +
                     "x = '''\n"
                     "def not_code():\n"
                     "'''\n"
                     "y = f\"{d['a']}\" + \\\n"
                     "    str(torch.jit.script)  # script\n"
                     "z = (1,\n"
                     "     2)\n";
  CHECK(kept(text, {"script"}) ==
        "import torch\n"
        "y = f\"{d['a']}\" + \\\n"
        "    str(torch.jit.script)  # script\n");
}

TEST_CASE("A text only a parser could read, or one the slice would mostly keep, is refused") {
  std::string code = filler(8) + "torch.jit.script(m)\n";
  CHECK(kept("if x:\n\ttorch.jit.script(m)\n" + code, {"script"}) == "<none>");  // a tab indents
  CHECK(kept("x = (1,\n" + code, {"script"}) == "<none>");                       // a bracket left open
  CHECK(kept("x = 'open\n" + code, {"script"}) == "<none>");                     // a string left open
  CHECK(kept("x = 1\r" + code, {"script"}) == "<none>");                         // a lone carriage return
  CHECK(kept("  x = 1\n" + code, {"script"}) == "<none>");                       // an indentation Python rejects
  CHECK(kept("if x:\ny = 1\n" + code, {"script"}) == "<none>");                  // a header without a body
  CHECK(kept("s = f\"{d[\"k\"]}\"\n" + code, {"script"}) == "<none>");           // a 3.12 f-string
  CHECK(kept("torch.jit.script(m)\nx = 1\n", {"script"}) == "<none>");           // most of the text
  CHECK(kept(code, {"script"}) == "torch.jit.script(m)\n");
}

TEST_CASE("A slice parses as Python, with every node where it is in the whole text") {
  std::string text = "import torch\n" + filler(8) +
                     "class Model:\n"
                     "    size = 3\n"
                     "    def forward(self, x):\n"
                     "        if x is None:\n"
                     "            return x\n"
                     "        for item in x:\n"
                     "            print(item)\n"
                     "        return torch.jit.script(self)";  // no newline at the end
  std::optional<std::vector<SliceSpan>> spans = slice_statements(text, {"script"});
  REQUIRE(spans);
  SyntaxTree sliced = SyntaxTree::parse_spans(text, *spans);
  CHECK_FALSE(sliced.root().has_error());
  size_t at = text.find("torch.jit.script");
  Node node = sliced.root().descendant_for_range(static_cast<uint32_t>(at), static_cast<uint32_t>(at + 16));
  CHECK(node.kind() == "attribute");
  CHECK(node.text() == "torch.jit.script");
  CHECK(node.parent().parent().kind() == "return_statement");
}
