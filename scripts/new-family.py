#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Scaffold a new Python check family, as clang-tidy's add_new_check.py does for a check.

    python3 scripts/new-family.py NAME --code TMxxx [--callee torch.module.function] [--root DIR]

NAME is the family's kebab-case name (`renamed-keyword`). Writes, and lists:

- src/checks/python/<name>_check.cpp: a check that reports every use of the functions in its
  `callees` parameter (attribute chains and imported names, resolved through the semantic
  model, so look-alikes of the project's own stay silent); the starting point to edit;
- its factory in include/torchmigrate/checks/python_checks.hpp and its line in
  src/checks/registry.cpp, both in alphabetical order;
- its params schema in rules/schema.json (`$defs/families`, the family enum and `allOf`);
- rules/TMxxx.json, a rule of the family with every catalog field filled with a TODO text;
- tests/fixtures/python/TMxxx/: `uses.py` with its `.fixed` and `.snap`, and `negatives.py`.

Then: build (`cmake --build build`; the build's catalog check loads the new rule),
`cmake --build build --target rule_docs` for docs/rules, and `ctest -R "fixtures|catalog"`.
The scaffold itself is tested end to end by tests/scaffold/test_new_family.py (a copy of the
tree, the scaffold, a build and the fixtures). Python 3.11, standard library only.
"""
import argparse
import pathlib
import re
import sys


def snake(name):
    return name.replace("-", "_")


def camel(name):
    return "".join(part.capitalize() for part in name.split("-"))


def check_source(name, code):
    return f'''// SPDX-License-Identifier: MIT
// {code} and the rules of the `{name}` family: every use of the functions of `callees`
// (an attribute chain, or a name imported from their module) is reported; there is no fix yet.
// TODO: say what changed in torch and what the check looks for.
#include <set>

#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"

namespace torchmigrate::checks {{
namespace {{

using engine::PythonCheckContext;
using python::Node;

class {camel(name)}Check final : public engine::PythonCheck {{
 public:
  explicit {camel(name)}Check(const engine::RuleSpec& rule) : PythonCheck(rule) {{
    Params params(rule);
    for (const std::string& callee : params.strings("callees")) callees_.insert(callee);
    params.finish();  // a key this check does not read is an error, at build time
  }}

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {{ return {{"attribute", "identifier"}}; }}
  // A finding is one name: what it resolves to and the kind of its binding.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override {{ return true; }}

  void visit(Node node, PythonCheckContext& context) override {{
    if (node.kind() == "identifier") {{
      if (!is_reference_identifier(node, context.parent())) return;
      // Imported names only: a local function of the same name is the project's own.
      const python::Binding* binding = context.model().lookup(node.text(), node);
      if (binding == nullptr || binding->kind != python::BindingKind::Import) return;
    }}
    std::optional<std::string> qualified = context.model().resolve(node);
    if (!qualified || !callees_.contains(*qualified)) return;
    context.report(rule(), node.range(), {{{{"name", *qualified}}}});
  }}

 private:
  std::set<std::string, std::less<>> callees_;
}};

}}  // namespace

std::unique_ptr<engine::PythonCheck> make_{snake(name)}_check(const engine::RuleSpec& rule) {{
  return std::make_unique<{camel(name)}Check>(rule);
}}

}}  // namespace torchmigrate::checks
'''


def rule_json(name, code, callee, release):
    word = callee.rsplit(".", 1)[1]
    return f'''{{
  "code": "{code}",
  "name": "{name}-todo",
  "summary": "TODO: one line on what changed in torch",
  "message": "`{{name}}` TODO: what changed, and what to do",
  "severity": "warning",
  "default_enabled": true,
  "since": "{release[1]}",
  "kind": "changed-default",
  "impact": "silent-change",
  "release": {{"from": "{release[0]}", "to": "{release[1]}"}},
  "confidence": "high",
  "references": ["pytorch#0"],
  "triggers": ["{word}"],
  "check": {{
    "family": "{name}",
    "params": {{"callees": ["{callee}"]}}
  }},
  "fix": {{"applicability": "none"}},
  "docs": {{
    "what": "TODO: what the rule finds.",
    "why": "TODO: what changed in torch, with the pull request.",
    "before": "import torch\\n\\n{callee}(x)\\n",
    "after": "import torch\\n\\n{callee}(x)  # TODO: the code after the change\\n",
    "fix_safety": "No fix yet.",
    "limitations": "TODO: what the check cannot see."
  }}
}}
'''


def fixture(callee):
    module, function = callee.rsplit(".", 1)
    lines = [
        f"import {module.split('.')[0]}",
        f"from {module} import {function}",
        f"from {module} import {function} as renamed",
        "",
        f"{callee}(x)  # expect: CODE",
        f"{function}(x)  # expect: CODE",
        f"renamed(x)  # expect: CODE",
    ]
    return lines


def snapshot(lines, code, message, callee):
    out = []
    for number, line in enumerate(lines, 1):
        if "# expect:" not in line:
            continue
        name = line.split("(", 1)[0]
        out.append(f"{number}:1-{number}:{len(name) + 1} {code} [warning] {message.replace('{name}', callee)}\n")
    return "".join(out)


def negatives(callee):
    module, function = callee.rsplit(".", 1)
    return "\n".join([
        f"import {module.split('.')[0]}",
        "",
        "",
        f"def {function}(x):",
        "    return x",
        "",
        "",
        f"{function}(x)",
        f"obj.{function}(x)",
        f'name = "{callee}"',
        f"# {callee}(x)",
        "",
    ])


def insert_sorted_line(path, pattern, new_line):
    """Inserts `new_line` among the lines matching `pattern`, in alphabetical order."""
    lines = path.read_text().split("\n")
    matching = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    if not matching:
        raise SystemExit(f"{path}: no line matches {pattern}")
    if new_line in lines:
        raise SystemExit(f"{path}: already has {new_line.strip()}")
    # By the family's name (the quoted word of a registry line) or the factory's name.
    key = lambda line: (re.findall(r'"([^"]+)"', line) or re.findall(r"make_\w+", line) or [line])[0]
    at = next((i for i in matching if key(lines[i]) > key(new_line)), matching[-1] + 1)
    lines.insert(at, new_line)
    path.write_text("\n".join(lines))


def add_to_schema(path, name):
    text = path.read_text()
    family = (f'      "{name}": {{\n'
              f'        "type": "object", "additionalProperties": false, "required": ["callees"],\n'
              f'        "description": "TODO: the pattern. Every use of the listed functions; the message gets `{{name}}`.",\n'
              f'        "properties": {{\n'
              f'          "callees": {{"type": "array", "minItems": 1, "items": {{"$ref": "#/$defs/qualified_name"}}, '
              f'"description": "The functions, fully qualified."}}\n'
              f'        }}\n'
              f'      }},\n')
    anchor = '    "families": {\n'
    if anchor not in text or f'"{name}": {{' in text:
        raise SystemExit(f"{path}: cannot add the family (no `families` object, or it is there already)")
    text = text.replace(anchor, anchor + family, 1)
    enum = re.search(r'("family": \{\n\s*"enum": \[)(.*?)(\])', text, re.S)
    names = sorted(re.findall(r'"([a-z0-9-]+)"', enum.group(2)) + [name])
    body = "\n            " + ",\n            ".join(f'"{n}"' for n in names) + "\n          "
    text = text[:enum.start(2)] + body + text[enum.end(2):]
    anchor = '      "allOf": [\n'
    entry = (f'        {{"if": {{"properties": {{"family": {{"const": "{name}"}}}}}},\n'
             f'         "then": {{"required": ["params"], "properties": {{"params": {{"$ref": "#/$defs/families/{name}"}}}}}}}},\n')
    text = text.replace(anchor, anchor + entry, 1)
    path.write_text(text)


def catalog_release(rules):
    """The base release and first target of the catalog: the new rule's `release`."""
    pairs = [re.search(r'"release": \{"from": "([0-9.]+)", "to": "([0-9.]+)"\}', p.read_text()) for p in rules]
    pairs = [m.groups() for m in pairs if m]
    key = lambda v: tuple(int(x) for x in v.split("."))
    return min((p[0] for p in pairs), key=key), min((p[1] for p in pairs), key=key)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="kebab-case family name, e.g. renamed-keyword")
    parser.add_argument("--code", required=True, help="the first rule's code, TMxxx (unused)")
    parser.add_argument("--callee", default="torch.example_function", help="a fully qualified function")
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name):
        parser.error("NAME is kebab-case: lower-case words joined by `-`")
    if not re.fullmatch(r"TM[0-9]{3}", args.code):
        parser.error("--code is TM and three digits")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", args.callee):
        parser.error("--callee is a fully qualified function, e.g. torch.nn.functional.gelu")
    root = args.root
    check = root / "src/checks/python" / f"{snake(args.name)}_check.cpp"
    rule = root / "rules" / f"{args.code}.json"
    fixtures = root / "tests/fixtures/python" / args.code
    for path in (check, rule, fixtures):
        if path.exists():
            sys.exit(f"{path} exists already")

    check.write_text(check_source(args.name, args.code))
    insert_sorted_line(root / "include/torchmigrate/checks/python_checks.hpp",
                       r"^std::unique_ptr<engine::PythonCheck> make_",
                       f"std::unique_ptr<engine::PythonCheck> make_{snake(args.name)}_check(const engine::RuleSpec& rule);")
    insert_sorted_line(root / "src/checks/registry.cpp", r'^    built\.add_(python|file)\("',
                       f'    built.add_python("{args.name}", make_{snake(args.name)}_check);')
    add_to_schema(root / "rules/schema.json", args.name)
    text = rule_json(args.name, args.code, args.callee, catalog_release(sorted((root / "rules").glob("TM*.json"))))
    rule.write_text(text)
    message = re.search(r'"message": "(.*)",', text).group(1).replace('\\"', '"')

    fixtures.mkdir(parents=True)
    lines = [line.replace("CODE", args.code) for line in fixture(args.callee)]
    uses = "\n".join(lines) + "\n"
    (fixtures / "uses.py").write_text(uses)
    (fixtures / "uses.py.fixed").write_text(uses)  # no fix yet: fixing changes nothing
    (fixtures / "uses.py.snap").write_text(snapshot(lines, args.code, message, args.callee))
    (fixtures / "negatives.py").write_text(negatives(args.callee))

    written = [check, rule, fixtures / "uses.py", fixtures / "uses.py.fixed", fixtures / "uses.py.snap",
               fixtures / "negatives.py"]
    print("wrote:\n  " + "\n  ".join(str(p.relative_to(root)) for p in written))
    print("added the family to: include/torchmigrate/checks/python_checks.hpp, src/checks/registry.cpp, "
          "rules/schema.json")
    print("next: cmake --build build && cmake --build build --target rule_docs && ctest --test-dir build -R "
          "'fixtures|catalog'; then fill in every TODO, and add the family to docs/adding-a-rule.md")


if __name__ == "__main__":
    main()
