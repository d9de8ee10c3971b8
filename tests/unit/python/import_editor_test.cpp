// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/import_editor.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::python;

namespace {

// Every node of `kind` whose text is `text`, in source order.
std::vector<Node> find_all(Node root, std::string_view kind, std::string_view text) {
  std::vector<Node> found;
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    Node node = stack.back();
    stack.pop_back();
    if (node.kind() == kind && node.text() == text) found.push_back(node);
    for (uint32_t i = node.named_child_count(); i > 0; --i) stack.push_back(node.named_child(i - 1));
  }
  return found;
}

Node find(Node root, std::string_view kind, std::string_view text) {
  std::vector<Node> found = find_all(root, kind, text);
  REQUIRE(!found.empty());
  return found.front();
}

// The item of a from-import that imports `name` (with its alias, if any).
Node import_item(Node root, std::string_view text) {
  Node item = find_all(root, "aliased_import", text).empty() ? find(root, "dotted_name", text)
                                                             : find(root, "aliased_import", text);
  REQUIRE(item.parent().kind() == "import_from_statement");
  return item;
}

struct Parsed {
  explicit Parsed(std::string text) : source(std::move(text)), tree(SyntaxTree::parse(source)), model(tree.root()) {}
  std::string source;
  SyntaxTree tree;
  SemanticModel model;
  ImportEditor editor{model};
};

// `module.name` imported for a use at the last identifier spelled `at`.
ImportChange import_for(const Parsed& parsed, std::string_view at, std::string_view module, std::string_view name,
                        Node next_to = {}) {
  std::vector<Node> uses = find_all(parsed.tree.root(), "identifier", at);
  Node where = uses.empty() ? parsed.tree.root() : uses.back();
  return parsed.editor.import_name(module, name, where, next_to);
}

std::string applied(const Parsed& parsed, const ImportChange& change) {
  REQUIRE(change);
  return apply_edits(parsed.source, change.edits);
}

// `source` once `m.g` is imported for a use at the last identifier spelled `at`.
std::string with_g(const std::string& source, std::string_view at) {
  Parsed parsed(source);
  return applied(parsed, import_for(parsed, at, "m", "g"));
}

// `source` once `item` imports `new`, then " -> " and the name its uses spell; or "refused: "
// and the reason. The uses are the references to the name `item` binds.
std::string renamed(const std::string& source, std::string_view item) {
  Parsed parsed(source);
  Node node = import_item(parsed.tree.root(), item);
  std::vector<Node> uses;
  for (Node identifier : find_all(parsed.tree.root(), "identifier", ImportEditor::bound_name(node).text())) {
    std::string_view parent = identifier.parent().kind();
    if (parent != "dotted_name" && parent != "aliased_import") uses.push_back(identifier);
  }
  ImportChange change = parsed.editor.rename_name(node, "new", uses);
  if (!change) return "refused: " + change.conflict;
  return apply_edits(parsed.source, change.edits) + " -> " + change.name;
}

// `source` without the imported name `item`.
std::string without(const std::string& source, std::string_view item) {
  Parsed parsed(source);
  std::optional<Edit> edit = ImportEditor::remove_name(import_item(parsed.tree.root(), item));
  REQUIRE(edit);
  return apply_edits(parsed.source, {*edit});
}

}  // namespace

TEST_CASE("a new import goes to an empty file") {
  Parsed parsed("");
  ImportChange change = import_for(parsed, "", "torch._dynamo", "maybe_mark_dynamic");
  CHECK(applied(parsed, change) == "from torch._dynamo import maybe_mark_dynamic\n");
  CHECK(change.name == "maybe_mark_dynamic");
}

TEST_CASE("a new import goes after the docstring, __future__ and leading imports") {
  CHECK(with_g("\"\"\"Doc.\"\"\"\nx = f(1)\n", "f") == "\"\"\"Doc.\"\"\"\nfrom m import g\nx = f(1)\n");
  CHECK(with_g("\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nimport os\n\nx = f(1)\n", "f") ==
        "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nimport os\nfrom m import g\n\nx = f(1)\n");
  CHECK(with_g("#!/usr/bin/env python\nx = f(1)", "f") == "#!/usr/bin/env python\nfrom m import g\nx = f(1)");
  CHECK(with_g("import os", "os") == "import os\nfrom m import g\n");
}

TEST_CASE("a name joins an existing from list in its style") {
  CHECK(with_g("from m import a, b\nx = a(1)\n", "a") == "from m import a, b, g\nx = a(1)\n");
  CHECK(with_g("from m import (a, b,)\nx = a(1)\n", "a") == "from m import (a, b, g,)\nx = a(1)\n");

  Parsed trailing("from m import (\n    a as x,  # note\n    b,\n)\nx(1)\n");
  Node item = import_item(trailing.tree.root(), "a as x");
  CHECK(applied(trailing, import_for(trailing, "x", "m", "g", item)) ==
        "from m import (\n    a as x,  # note\n    g,\n    b,\n)\nx(1)\n");
  CHECK(applied(trailing, import_for(trailing, "x", "m", "g")) ==
        "from m import (\n    a as x,  # note\n    b,\n    g,\n)\nx(1)\n");
  CHECK(with_g("from m import (\n    a,\n    b\n)\na(1)\n", "a") ==
        "from m import (\n    a,\n    b,\n    g\n)\na(1)\n");
}

TEST_CASE("an import already visible is reused") {
  Parsed parsed("from m import g as gg\nx = f(1)\n");
  ImportChange change = import_for(parsed, "f", "m", "g");
  REQUIRE(change);
  CHECK(change.edits.empty());
  CHECK(change.name == "gg");
}

TEST_CASE("an added name never rebinds or is shadowed") {
  Parsed local("def g():\n    pass\nx = f(1)\n");
  ImportChange change = import_for(local, "f", "m", "g");
  CHECK_FALSE(change);
  CHECK(change.conflict == "`g` already names something else in this file");

  Parsed later("from m import f\nx = f(1)\ng = 3\n");
  CHECK_FALSE(import_for(later, "f", "m", "g"));

  Parsed parameter("from m import f\ndef h(g):\n    return f(g)\n");
  CHECK_FALSE(import_for(parameter, "f", "m", "g"));

  // A `g` private to another function is no conflict.
  CHECK(with_g("from m import f\ndef h():\n    g = 1\nx = f(1)\n", "f") ==
        "from m import f, g\ndef h():\n    g = 1\nx = f(1)\n");
}

TEST_CASE("renaming an imported name") {
  CHECK(renamed("from m import a, old\nold(1)\n", "old") == "from m import a, new\nold(1)\n -> new");
  CHECK(renamed("from m import old as o\no(1)\n", "old as o") == "from m import new as o\no(1)\n -> o");
}

TEST_CASE("renaming to a name already imported reuses that import") {
  CHECK(renamed("from m import new, old\nold(1)\n", "old") == "from m import new\nold(1)\n -> new");
  CHECK(renamed("from m import new\nfrom m import old\nold(1)\n", "old") == "from m import new\nold(1)\n -> new");
}

TEST_CASE("a rename that would capture another binding is refused") {
  std::string taken = "refused: `new` already names something else in this file";
  CHECK(renamed("from m import old\ndef new():\n    pass\nold(1)\n", "old") == taken);
  CHECK(renamed("from n import new\nfrom m import old\nold(1)\n", "old") == taken);
  CHECK(renamed("from m import old\ndef f(new):\n    return old(new)\n", "old") == taken);
  CHECK(renamed("try:\n    from m import old\nexcept ImportError:\n    old = None\n", "old") ==
        "refused: `old` is also assigned elsewhere in the same scope");
}

TEST_CASE("removing names") {
  CHECK(without("from m import (\n    a,\n    b,\n    c,\n)\n", "b") == "from m import (\n    a,\n    c,\n)\n");
  CHECK(without("from m import (\n    a,\n    b,\n    c,\n)\n", "a") == "from m import (\n    b,\n    c,\n)\n");
  CHECK(without("import os\nfrom m import a as b\nx = 1\n", "a as b") == "import os\nx = 1\n");
  CHECK(without("if x:\n    from m import a\n", "a") == "if x:\n    pass\n");
}

TEST_CASE("moving an import to another module") {
  Parsed from("from a.b import c\nimport a.b.c as d\n");
  Node statement = find(from.tree.root(), "import_from_statement", "from a.b import c");
  Node aliased = find(from.tree.root(), "aliased_import", "a.b.c as d");
  CHECK(apply_edits(from.source,
                    {ImportEditor::replace_module(statement, "x.y"), ImportEditor::replace_module(aliased, "x.y.c")}) ==
        "from x.y import c\nimport x.y.c as d\n");
}

namespace {

// The first import in `source` moved to `x.y`, the old import kept as the fallback; "refused"
// when it cannot be.
std::string with_fallback(const std::string& source) {
  Parsed parsed(source);
  Node statement;
  for (std::string_view kind : {"import_from_statement", "import_statement"}) {
    std::vector<Node> stack{parsed.tree.root()};
    while (!stack.empty() && !statement) {
      Node node = stack.back();
      stack.pop_back();
      if (node.kind() == kind) statement = node;
      for (uint32_t i = node.named_child_count(); i > 0; --i) stack.push_back(node.named_child(i - 1));
    }
  }
  REQUIRE(statement);
  Node target = statement.kind() == "import_from_statement" ? statement : statement.named_child(0);
  std::optional<Edit> edit = ImportEditor::with_fallback(statement, {ImportEditor::replace_module(target, "x.y")});
  return edit ? apply_edits(parsed.source, {*edit}) : "refused";
}

}  // namespace

TEST_CASE("an import moved into a try with the old one as its fallback") {
  CHECK(with_fallback("from a import b  # note\nb()\n") ==
        "try:\n    from x.y import b\nexcept ImportError:\n    from a import b  # note\nb()\n");
  CHECK(with_fallback("def f():\n    import a.b as c\n") ==
        "def f():\n    try:\n        import x.y as c\n    except ImportError:\n        import a.b as c\n");
  CHECK(with_fallback("if x:\n\tfrom a import (\n\t\tb,\n\t)\n") ==
        "if x:\n\ttry:\n\t\tfrom x.y import (\n\t\t\tb,\n\t\t)\n\texcept ImportError:\n\t\tfrom a import "
        "(\n\t\t\tb,\n\t\t)\n");
  CHECK(with_fallback("from a import b\r\n") ==
        "try:\r\n    from x.y import b\r\nexcept ImportError:\r\n    from a import b\r\n");
  CHECK(with_fallback("from a import b; b()\n") == "refused");
  CHECK(with_fallback("if x: from a import b\n") == "refused");
}

TEST_CASE("CRLF files keep their line endings") {
  CHECK(with_g("\"\"\"Doc.\"\"\"\r\nimport os\r\nx = f(1)\r\n", "f") ==
        "\"\"\"Doc.\"\"\"\r\nimport os\r\nfrom m import g\r\nx = f(1)\r\n");
  CHECK(with_g("from m import (\r\n    a,\r\n)\r\na(1)\r\n", "a") ==
        "from m import (\r\n    a,\r\n    g,\r\n)\r\na(1)\r\n");

  CHECK(without("import os\r\nfrom m import a\r\nx = 1\r\n", "a") == "import os\r\nx = 1\r\n");
}

namespace {

// The names `moved` (items as written) of the first from-import in `source` split off to `x.y`;
// "refused" when they cannot be.
std::string split(const std::string& source, const std::vector<std::string_view>& moved) {
  Parsed parsed(source);
  std::vector<Node> items;
  for (std::string_view item : moved) items.push_back(import_item(parsed.tree.root(), item));
  std::optional<std::vector<Edit>> edits = ImportEditor::split_off(items.front().parent(), items, "x.y");
  return edits ? apply_edits(parsed.source, *edits) : "refused";
}

}  // namespace

TEST_CASE("names split off a from-import into a statement below it") {
  CHECK(split("from a import b, c, d\n", {"c"}) == "from a import b, d\nfrom x.y import c\n");
  CHECK(split("from a import b, c as e, d\n", {"b", "c as e"}) == "from a import d\nfrom x.y import b, c as e\n");
  CHECK(split("from a import b, c, d  # note\n", {"b", "d"}) == "from a import c  # note\nfrom x.y import b, d\n");
  CHECK(split("def f():\n    from a import (\n        b,\n        c,\n    )\n", {"c"}) ==
        "def f():\n    from a import (\n        b,\n    )\n    from x.y import c\n");
  CHECK(split("from a import b, c\r\nc()\r\n", {"b"}) == "from a import c\r\nfrom x.y import b\r\nc()\r\n");
  CHECK(split("from a import b, c", {"c"}) == "from a import b\nfrom x.y import c");
  // Every name, code on the same line, a comment inside: not split.
  CHECK(split("from a import b, c\n", {"b", "c"}) == "refused");
  CHECK(split("from a import b, c; b()\n", {"c"}) == "refused");
  CHECK(split("if x: from a import b, c\n", {"c"}) == "refused");
  CHECK(split("from a import (\n    b,  # keep\n    c,\n)\n", {"c"}) == "refused");
}
