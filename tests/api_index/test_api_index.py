# SPDX-License-Identifier: MIT
"""The rule catalog and its fixes, checked against the per-release index of torch's API
(api-index/): what a fix writes must exist on every torch release the fix claims to support,
and what a rule says changed must have changed.

FixSpellings: for every fix the catalog's docs examples (`before` -> `after` / `after_adopt_new`)
and the Python rule fixtures (`X.py` -> `X.py.fixed`, `.unsafe.fixed`, `.adopt-new.fixed`) show,
the torch names, keywords, config keys and ONNX opsets the fix wrote (present in the output,
not in the input) must exist on each indexed release from the fix's requirement (`requires`
`>=A.B`; with none, every indexed release, since a fix without a requirement is safe for any
project) up to the requirement's upper bound (`<C.D`). Releases where the code the fix replaced
could not run either are left out, unless the rule migrates to them (`since` and later); version
guards around the fixed code (`if torch.__version__ >= "2.8":`) narrow the releases too. The
requirement must also be true the other way: the release just below `>=A.B` should reject the
spelling (a warning when it does not, as for an upper bound that is still accepted).

RuleClaims: what a rule says about torch: a removed or renamed callable, enum member or config
key exists in the release before `since` and not at `since`; a renamed one's replacement exists
at `since`; a changed default was `keep_old` (or `old_default`, when keep-old writes an equivalent value) before and is `adopt_new` at `since`.

Environment: TORCHMIGRATE_SOURCE_DIR (the checkout), TORCHMIGRATE_RULES_DIR and
TORCHMIGRATE_FIXTURES_DIR (a rules/ or tests/fixtures/python/ to check instead), TORCHMIGRATE_BIN
(when set, the built binary's `rule --all --output-format json` must agree with the rule files),
TORCH_API_INDEX (another index file). Warnings go to stderr; stdlib only.
"""
from __future__ import annotations

import ast
import difflib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("TORCHMIGRATE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
RULES_DIR = Path(os.environ.get("TORCHMIGRATE_RULES_DIR", SOURCE_DIR / "rules"))
FIXTURES_DIR = Path(os.environ.get("TORCHMIGRATE_FIXTURES_DIR", SOURCE_DIR / "tests" / "fixtures" / "python"))
BINARY = os.environ.get("TORCHMIGRATE_BIN")

sys.path.insert(0, str(SOURCE_DIR / "api-index"))
import torch_api  # noqa: E402

RELEASES = torch_api.releases()

# Names a config module has at run time without defining them: install_config_module makes the
# module a ConfigModule with these methods.
CONFIG_MODULE_METHODS = {
    "patch", "save_config", "save_config_portable", "load_config", "get_config_copy", "to_dict",
    "shallow_copy_dict", "codegen_config", "get_hash", "get_type", "get_config_and_hash_with_updated_defaults",
}
ONNX_EXPORTERS = ("torch.onnx.export", "torch.onnx.utils.export")


def key(release: str) -> tuple[int, ...]:
    return torch_api.release_key(release)


def previous_minor(release: str) -> str | None:
    major, minor = key(release)[:2]
    if minor > 0:
        return f"{major}.{minor - 1}"
    older = [r for r in RELEASES if key(r) < key(release)]
    return older[-1] if older else None


def warn(message: str) -> None:
    print(f"WARNING: {message}", file=sys.stderr)


# The catalog ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Requirement:
    low: str | None = None
    below: str | None = None

    @staticmethod
    def parse(text: str | None) -> "Requirement":
        if not text:
            return Requirement()
        match = re.fullmatch(r"\s*(?:>=\s*(\d+\.\d+))?\s*,?\s*(?:<\s*(\d+\.\d+))?\s*", text)
        if not match or not (match.group(1) or match.group(2)):
            raise ValueError(f"unreadable torch requirement {text!r}")
        return Requirement(match.group(1), match.group(2))

    def __str__(self) -> str:
        parts = ([f">={self.low}"] if self.low else []) + ([f"<{self.below}"] if self.below else [])
        return ",".join(parts) or "none"


@functools.lru_cache(maxsize=None)
def rule_files() -> dict[str, dict]:
    rules = {}
    for path in sorted(RULES_DIR.glob("TM*.json")):
        rule = json.loads(path.read_text())
        rules[rule["code"]] = rule
    return rules


@functools.lru_cache(maxsize=None)
def binary_rules() -> dict[str, dict] | None:
    """`torchmigrate rule --all --output-format json`, when the binary is given."""
    if not BINARY:
        return None
    result = subprocess.run([BINARY, "rule", "--all", "--output-format", "json"], capture_output=True, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f"`rule --all` failed: {result.stderr.decode(errors='replace')}")
    return {rule["code"]: rule for rule in json.loads(result.stdout)}


def fix_requirement(rule: dict) -> Requirement:
    return Requirement.parse(rule.get("fix", {}).get("requires", {}).get("torch"))


def python_rules() -> dict[str, dict]:
    return {code: rule for code, rule in rule_files().items() if rule.get("language", "python") == "python"
            and rule["kind"] != "build"}


def base_release() -> str:
    """The release the catalog upgrades from (its rules' `release.from`)."""
    return min((rule["release"]["from"] for rule in rule_files().values()), key=key)


# Reading Python: torch names, keywords, config keys ------------------------------------------

@dataclass(frozen=True)
class Item:
    kind: str  # name, keyword, config, opset
    ref: str  # a torch name; `f()` stands for what calling `f` returns
    detail: str = ""  # the keyword, the config key, the opset
    extra: str = ""  # for opset: the literal `dynamo=` of the call ("" when absent)

    def __str__(self) -> str:
        if self.kind == "keyword":
            return f"`{self.ref}(..., {self.detail}=)`"
        if self.kind == "config":
            return f"config `{self.ref}.{self.detail}`"
        if self.kind == "opset":
            return f"`{self.ref}(..., opset_version={self.detail}{', dynamo=' + self.extra if self.extra else ''})`"
        return f"`{self.ref}`"

    def tokens(self) -> list[str]:
        """Words that say which rule wrote it, most telling first."""
        last = [part for part in self.ref.replace("()", "").split(".") if part]
        if self.kind == "keyword":
            return [self.detail] + last[::-1]
        if self.kind == "config":
            return [self.detail, self.detail.split(".")[-1]] + last[::-1]
        if self.kind == "opset":
            return ["opset_version"]
        return last[::-1]


@dataclass
class Occurrence:
    item: Item
    line: int
    releases: frozenset | None  # releases the enclosing version guards let run; None = all


VERSION_TEXT = re.compile(r"torch.*version|version.*torch", re.IGNORECASE)


def version_literal(node: ast.AST) -> tuple[int, int] | None:
    if isinstance(node, ast.Tuple) and len(node.elts) >= 2 and all(
            isinstance(e, ast.Constant) and isinstance(e.value, int) for e in node.elts[:2]):
        return node.elts[0].value, node.elts[1].value
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        match = re.match(r"(\d+)\.(\d+)", node.value)
        return (int(match.group(1)), int(match.group(2))) if match else None
    if isinstance(node, ast.Call) and len(node.args) == 1:
        return version_literal(node.args[0])
    return None


def guard_releases(test: ast.AST, source: str) -> frozenset | None:
    """The releases for which a version test like `TORCH_VERSION >= (2, 8)` or
    `torch.__version__ < "2.8"` holds; None when the test is not (only) about torch's version."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = guard_releases(test.operand, source)
        return None if inner is None else frozenset(RELEASES) - inner
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        parts = [guard_releases(value, source) for value in test.values]
        known = [part for part in parts if part is not None]
        if not known:
            return None
        out = frozenset(RELEASES)
        for part in known:
            out &= part
        return out
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left_text = ast.get_source_segment(source, test.left) or ""
    if not VERSION_TEXT.search(left_text):
        return None
    bound = version_literal(test.comparators[0])
    if bound is None:
        return None
    op = test.ops[0]
    compare = {ast.Lt: lambda r: r < bound, ast.LtE: lambda r: r <= bound, ast.Gt: lambda r: r > bound,
               ast.GtE: lambda r: r >= bound}.get(type(op))
    if compare is None:
        return None
    return frozenset(r for r in RELEASES if compare(key(r)[:2]))


def catches_import_error(handler: ast.ExceptHandler) -> bool:
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(t is None or isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError", "Exception")
               for t in types)


class PythonReader:
    """The torch API a Python file uses, each use with its line and version guards."""

    def __init__(self, source: str):
        self.source = source
        self.tree = ast.parse(source)
        self.aliases: dict[str, str] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self._collect_aliases()
        self.occurrences: list[Occurrence] = []
        self._collect()

    def _collect_aliases(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    if alias.name != "*":
                        self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        # `cfg = torch._inductor.config` at module level
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target = self.ref(node.value)
                if target and target.startswith("torch") and "()" not in target:
                    self.aliases[node.targets[0].id] = target

    def ref(self, node: ast.AST) -> str | None:
        """The torch name an expression spells (`f()` for a call's result), or None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            root = self.aliases.get(node.id)
            if root is None or not (root == "torch" or root.startswith("torch.")):
                return None
            base = root
        elif isinstance(node, ast.Call):
            inner = self.ref(node.func)
            if inner is None:
                return None
            base = inner + "()"
        else:
            return None
        return ".".join([base] + parts[::-1])

    def guards(self, node: ast.AST) -> frozenset | None:
        allowed = None
        child = node
        parent = self.parents.get(child)
        while parent is not None:
            # An import in a `try` whose handler catches ImportError may fail on any release:
            # the handler's import (`except ImportError: from old.place import x`) runs there.
            if isinstance(node, (ast.Import, ast.ImportFrom)) and isinstance(parent, ast.Try) and \
                    child in parent.body and any(catches_import_error(h) for h in parent.handlers):
                return frozenset()
            if isinstance(parent, (ast.If, ast.IfExp)):
                in_body = child in (parent.body if isinstance(parent.body, list) else [parent.body])
                in_else = child in (parent.orelse if isinstance(parent.orelse, list) else [parent.orelse])
                if in_body or in_else:
                    holds = guard_releases(parent.test, self.source)
                    if holds is not None:
                        part = holds if in_body else frozenset(RELEASES) - holds
                        allowed = part if allowed is None else allowed & part
            child, parent = parent, self.parents.get(parent)
        return allowed

    def add(self, item: Item, node: ast.AST) -> None:
        self.occurrences.append(Occurrence(item, node.lineno, self.guards(node)))

    def _collect(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                    node.module == "torch" or node.module.startswith("torch.")):
                for alias in node.names:
                    if alias.name != "*":
                        self.add(Item("name", f"{node.module}.{alias.name}"), node)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "torch" or alias.name.startswith("torch."):
                        self.add(Item("name", alias.name), node)
            elif isinstance(node, (ast.Attribute, ast.Name)):
                parent = self.parents.get(node)
                if isinstance(parent, ast.Attribute) and parent.value is node:
                    continue  # only whole chains
                spelled = self.ref(node)
                if spelled and spelled != "torch":
                    self.add(Item("name", spelled), node)
            if isinstance(node, ast.Call):
                callee = self.ref(node.func)
                if not callee:
                    continue
                config_module = callee[: -len(".patch")] if callee.endswith(".patch") else None
                if config_module is not None:
                    keys = [kw.arg for kw in node.keywords if kw.arg]
                    if node.args and isinstance(node.args[0], ast.Dict):
                        keys += [k.value for k in node.args[0].keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
                    elif node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                        keys.append(node.args[0].value)
                    for name in keys:
                        self.add(Item("config", config_module, name), node)
                    continue
                for keyword in node.keywords:
                    if keyword.arg:
                        self.add(Item("keyword", callee, keyword.arg), node)
                if callee in ONNX_EXPORTERS:
                    values = {kw.arg: kw.value for kw in node.keywords if kw.arg}
                    opset = values.get("opset_version")
                    if isinstance(opset, ast.Constant) and isinstance(opset.value, int):
                        dynamo = values.get("dynamo")
                        dynamo_text = ast.get_source_segment(self.source, dynamo) if dynamo is not None else ""
                        self.add(Item("opset", callee, str(opset.value), dynamo_text or ""), node)


def written(before: str, after: str) -> list[tuple[Occurrence, list[Item]]]:
    """What turning `before` into `after` wrote: uses present more often in `after`, located on
    the lines that changed where possible; each with the names its hunk of `before` used and
    `after` no longer does (what it replaced)."""
    old, new = PythonReader(before), PythonReader(after)
    counts_old = Counter(o.item for o in old.occurrences)
    counts_new = Counter(o.item for o in new.occurrences)
    hunk_of: dict[int, tuple[int, int, int, int]] = {}
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            for line in range(j1 + 1, j2 + 1):
                hunk_of[line] = (i1, i2, j1, j2)
    def removed(before_items, after_items) -> list[Item]:
        fewer = Counter(o.item for o in before_items if o.item.kind in ("name", "config"))
        fewer.subtract(Counter(o.item for o in after_items))
        return sorted((item for item, count in fewer.items() if count > 0), key=str)

    file_wide = removed(old.occurrences, new.occurrences)
    out = []
    for item, count in counts_new.items():
        if count <= counts_old.get(item, 0):
            continue
        occurrences = [o for o in new.occurrences if o.item == item]
        on_changed = [o for o in occurrences if o.line in hunk_of]
        for occurrence in on_changed or occurrences:
            replaced: list[Item] = []
            if occurrence.line in hunk_of:
                i1, i2, j1, j2 = hunk_of[occurrence.line]
                replaced = removed([o for o in old.occurrences if i1 < o.line <= i2],
                                   [o for o in new.occurrences if j1 < o.line <= j2])
            out.append((occurrence, replaced or file_wide))
    return sorted(out, key=lambda pair: (pair[0].line, str(pair[0].item)))


# Checking one use on one release -------------------------------------------------------------

OK, MISSING, NOT_APPLICABLE, UNKNOWN, DOUBTFUL = "ok", "missing", "n/a", "unknown", "doubtful"


CALLEE_MISSING = torch_api.Node("callee-missing", "")


def resolve_ref(release: str, ref: str):
    """torch_api.resolve extended with `f()`: the class `f`'s return annotation names, and the
    ConfigModule methods of config modules."""
    index = torch_api.load(release)
    if "()" not in ref:
        node = index.resolve(ref)
        if node is None:
            parent, _, last = ref.rpartition(".")
            if last in CONFIG_MODULE_METHODS and torch_api.is_config_module(release, parent):
                return torch_api.Node("function", parent, last)
        return node
    head, _, rest = ref.partition("()")
    node = index.resolve(head)
    if node is None:
        return CALLEE_MISSING
    if node is torch_api.UNKNOWN:
        return node
    node = index.return_class(head)
    if node is None:
        return torch_api.UNKNOWN
    for part in [p for p in rest.split(".") if p]:
        if "()" in part:
            return torch_api.UNKNOWN
        node = index.member(node, part)
        if node is None or node is torch_api.UNKNOWN:
            return node
    return node


def signature_of(release: str, node) -> list | None:
    if node.kind not in ("function", "class"):
        return None
    return torch_api.load(release).signatures(node.qualname)


def check_item(release: str, item: Item) -> tuple[str, str]:
    """(status, detail) of one written use on one release."""
    if item.kind == "name":
        node = resolve_ref(release, item.ref)
        if node is CALLEE_MISSING:
            return NOT_APPLICABLE, "what it is called on does not exist"
        if node is torch_api.UNKNOWN:
            return UNKNOWN, "the index cannot tell"
        return (OK, "") if node is not None else (MISSING, "does not exist")
    if item.kind == "keyword":
        node = resolve_ref(release, item.ref)
        if node is None or node is CALLEE_MISSING:
            return NOT_APPLICABLE, "the callee itself does not exist"
        if node is torch_api.UNKNOWN:
            return UNKNOWN, "the index cannot tell what the callee is"
        signatures = signature_of(release, node)
        if signatures is None:
            return UNKNOWN, "no signature in the index"
        for params in signatures:
            for param in params:
                if param.name == item.detail and param.keyword:
                    return OK, ""
                if param.kind == "var-keyword":
                    return OK, "taken by **" + param.name
        shown = ", ".join(p.name for p in signatures[0]) if signatures else ""
        return MISSING, f"no parameter `{item.detail}` (signature: {shown})"
    if item.kind == "config":
        if not torch_api.is_config_module(release, item.ref):
            return (NOT_APPLICABLE, "no such config module") if torch_api.exists(release, item.ref) is False else (
                UNKNOWN, "not a config module in the index")
        return (OK, "") if torch_api.config_key(release, item.ref, item.detail) else (MISSING, "no such config key")
    if item.kind == "opset":
        facts = torch_api.onnx(release)
        if not facts:
            return UNKNOWN, "no ONNX facts"
        opset = int(item.detail)
        dynamo = item.extra.strip()
        if dynamo and not torch_api.accepts_keyword(release, item.ref, "dynamo"):
            return NOT_APPLICABLE, "no `dynamo=` (checked as a keyword)"
        default_dynamo = torch_api.keyword_default(release, "torch.onnx.export", "dynamo")
        if dynamo == "True" or (not dynamo and default_dynamo == "True"):
            limit = facts.get("max_opset")
            return (OK, "") if limit is None or opset <= limit else (
                MISSING, f"the dynamo exporter's ONNX_MAX_OPSET is {limit}")
        limit = facts.get("torchscript_max_opset")
        if limit is not None and opset > limit:
            hard = facts.get("max_opset")
            if hard is not None and opset > hard:
                return MISSING, f"the TorchScript exporter rejects opset {opset} (ONNX_MAX_OPSET {hard})"
            return DOUBTFUL, (f"the TorchScript exporter declares opsets up to {limit} "
                              f"(ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET); above it torch warns that the opset is not supported")
        return OK, ""
    raise ValueError(item.kind)


# Which rule wrote a use, and what it claims ----------------------------------------------------

def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def writes_vocabulary(rule: dict) -> list[tuple[set, Requirement | None, str]]:
    """(words, the requirement of what those words write, label) for each thing a rule's fix
    writes; a None requirement means the rule's own `fix.requires`."""
    params = rule.get("check", {}).get("params", {})
    family = rule.get("check", {}).get("family")
    out: list[tuple[set, Requirement | None, str]] = []
    if family == "missing-keyword":
        out.append(({params.get("keyword")}, None, "keyword"))
    elif family == "renamed-callable":
        for rename in params.get("renames", []):
            call = rename.get("call", {})
            words = {rename["to"]}
            words |= {k["name"] for k in call.get("add_keywords", [])}
            words |= set(call.get("keywords", []))
            if "then_call" in call:
                words.add(call["then_call"]["method"])
                words |= set(call["then_call"].get("moving", []))
            if "pack" in call:
                words.add(call["pack"].get("keywords_into", ""))
            out.append((words, None, rename["from"]))
    elif family == "config-option":
        for option in params.get("options", []):
            words = {option["key"], option["key"].split(".")[-1]}
            for new in option.get("new_keys", []):
                words |= {new, new.split(".")[-1]}
            if option.get("move_to"):
                words.add(option["move_to"].split(".")[-1])
            requirement = Requirement.parse(option["requires"]["torch"]) if "requires" in option else None
            out.append((words, requirement, f"{option['module']}.{option['key']}"))
    elif family == "argument-value":
        for value in params.get("values", []):
            if value.get("action") == "replace":
                words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", value.get("with", ""))) - {"value"}
                requirement = Requirement.parse(value["requires"]["torch"]) if "requires" in value else None
                out.append((words, requirement, f"value {value['when']}"))
    elif family == "renamed-enum-member":
        out.append(({m["new_name"] for m in params.get("members", [])} | {params["enum"].split(".")[-1]}, None, "enum"))
    out.append((set(_strings(params)) | {w for s in _strings(params) for w in s.split(".")}, None, "params"))
    return out


def attribute(item: Item, codes: list[str], fallback: str) -> tuple[str, Requirement]:
    """The rule (of `codes`) whose fix wrote `item`, and the requirement that applies to it."""
    rules = {code: rule_files()[code] for code in codes if code in rule_files()}
    for token in item.tokens():
        for general in (False, True):
            for code, rule in rules.items():
                for words, requirement, label in writes_vocabulary(rule):
                    if (label == "params") != general:
                        continue
                    if token in words:
                        return code, requirement if requirement is not None else fix_requirement(effective_rule(code))
    return fallback, fix_requirement(effective_rule(fallback))


def effective_rule(code: str) -> dict:
    """The rule as the binary reports it when the binary is given and the rule files are the
    checkout's (its fix requirement is what the binary applies); else the rule file."""
    from_binary = binary_rules() if "TORCHMIGRATE_RULES_DIR" not in os.environ else None
    if from_binary and code in from_binary:
        merged = dict(rule_files()[code])
        merged["fix"] = from_binary[code]["fix"]
        return merged
    return rule_files()[code]


# Examples: docs and fixtures ------------------------------------------------------------------

@dataclass
class Example:
    label: str
    before: str
    after: str
    codes: list[str]  # rules enabled when it was made
    folder: str  # the rule it belongs to
    min_torch: str | None = None


def docs_examples() -> list[Example]:
    out = []
    for code, rule in python_rules().items():
        docs = effective_docs(code)
        before = docs.get("before") or ""
        if not before:
            continue
        for field_name in ("after", "after_adopt_new"):
            after = docs.get(field_name) or ""
            if after and rule.get("fix", {}).get("applicability", "none") != "none":
                out.append(Example(f"{code} docs `{field_name}`", before, after, [code], code))
    return out


def effective_docs(code: str) -> dict:
    from_binary = binary_rules() if "TORCHMIGRATE_RULES_DIR" not in os.environ else None
    if from_binary and code in from_binary:
        return from_binary[code]["docs"]
    return rule_files()[code].get("docs", {})


def fixture_examples() -> list[Example]:
    out = []
    expect = re.compile(r"(?:#|//)\s*expect:\s*([A-Z0-9, ]+)")
    options = re.compile(r"fixture-options:\s*min-torch=([0-9.]+)")
    if not FIXTURES_DIR.is_dir():
        return out
    for folder in sorted(FIXTURES_DIR.iterdir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            text = path.read_text()
            codes = [folder.name]
            for match in expect.finditer(text):
                for code in match.group(1).split(","):
                    code = code.strip()
                    if code and code not in codes:
                        codes.append(code)
            min_torch = options.search(text)
            for suffix in (".fixed", ".unsafe.fixed", ".adopt-new.fixed"):
                fixed = path.with_name(path.name + suffix)
                if fixed.exists():
                    out.append(Example(f"{folder.name}/{fixed.name}", text, fixed.read_text(), codes, folder.name,
                                       min_torch.group(1) if min_torch else None))
    return out


def catalog_examples() -> list[Example]:
    """The writes a rule's parameters describe, as small before/after pairs: every callee a
    missing-keyword fix adds its keyword to, every replacement a renamed-callable fix writes,
    every new config key a config-option fix sets. They cover callees no example shows."""
    out = []
    for code, rule in python_rules().items():
        if rule.get("fix", {}).get("applicability", "none") == "none":
            continue
        family = rule.get("check", {}).get("family")
        params = rule.get("check", {}).get("params", {})
        label = f"{code} check.params"
        if family == "missing-keyword":
            for callee in params.get("callees", []):
                for value in dict.fromkeys(v for v in (params.get("keep_old"), params.get("adopt_new")) if v):
                    out.append(Example(f"{label} ({callee})", f"import torch\n{callee}(a)\n",
                                       f"import torch\n{callee}(a, {params['keyword']}={value})\n", [code], code))
        elif family == "renamed-callable":
            for rename in params.get("renames", []):
                call = rename.get("call", {})
                new = rename["from"].rpartition(".")[0] + "." + rename["to"]
                keywords = [f"{k['name']}={k['value']}" for k in call.get("add_keywords", [])]
                keywords += [f"{name}=v" for name in call.get("keywords", [])]
                if "pack" in call:
                    keywords.append(f"{call['pack']['keywords_into']}={{}}")
                text = f"{new}(a{''.join(', ' + k for k in keywords)})"
                if "then_call" in call:
                    moving = ", ".join(f"{m}=v" for m in call["then_call"].get("moving", []))
                    text += f".{call['then_call']['method']}({moving})"
                out.append(Example(f"{label} ({rename['from']})", f"import torch\n{rename['from']}(a)\n",
                                   f"import torch\n{text}\n", [code], code))
        elif family == "config-option":
            for option in params.get("options", []):
                module, option_key = option["module"], option["key"]
                before = f"import {module}\n{module}.{option_key} = v\n"
                for new_key in option.get("new_keys", []):
                    out.append(Example(f"{label} ({module}.{option_key})", before,
                                       f"import {module}\n{module}.{new_key} = v\n", [code], code))
                if option.get("move_to"):
                    out.append(Example(f"{label} ({module}.{option_key})", before,
                                       f"import {option['move_to']}\n{option['move_to']}.{option_key} = v\n",
                                       [code], code))
    return out


@dataclass
class Finding:
    example: Example
    occurrence: Occurrence
    code: str
    requirement: Requirement
    replaced: list = field(default_factory=list)  # the names the rewritten code used instead
    results: dict = field(default_factory=dict)  # release -> (status, detail)

    def applies(self, release: str) -> bool:
        """Does the fixed code have to work on `release`? Where the code it replaced could not
        run either (a name it used does not exist there) the fix breaks nothing, unless the
        release is one the rule migrates to (`since` and later)."""
        since = rule_files()[self.code]["since"]
        if key(release) >= key(since):
            return True
        return all(check_item(release, name)[0] not in (MISSING, NOT_APPLICABLE) for name in self.replaced)


@functools.lru_cache(maxsize=None)
def findings_by_rule() -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = defaultdict(list)
    for example in docs_examples() + fixture_examples() + catalog_examples():
        try:
            uses = written(example.before, example.after)
        except SyntaxError:
            continue  # not Python (a fixture of another front); the fixture runner covers it
        for occurrence, replaced in uses:
            code, requirement = attribute(occurrence.item, example.codes, example.folder)
            finding = Finding(example, occurrence, code, requirement, replaced)
            for release in RELEASES:
                finding.results[release] = check_item(release, occurrence.item)
            out[code].append(finding)
    return out


def claimed_releases(finding: Finding) -> tuple[list[str], list[str]]:
    """(releases the claim covers, releases the claim needs that are not indexed)."""
    requirement = finding.requirement
    low = requirement.low
    if finding.example.min_torch and (low is None or key(finding.example.min_torch) > key(low)):
        low = finding.example.min_torch
    covered = [r for r in torch_api.iter_releases(low, requirement.below)]
    guard = finding.occurrence.releases
    if guard is not None:
        covered = [r for r in covered if r in guard]
    missing = [low] if low is not None and low not in RELEASES else []
    return covered, missing


# The tests -------------------------------------------------------------------------------------

def details(finding: Finding, releases: list[str]) -> str:
    """`torch 2.0, 2.1: what; torch 2.2: other` for the given releases."""
    groups: dict[str, list[str]] = {}
    for release in releases:
        groups.setdefault(finding.results[release][1], []).append(release)
    return "; ".join(f"torch {', '.join(rs)}: {detail}" for detail, rs in groups.items())


def examples(places: list[str]) -> str:
    shown = sorted(set(places))
    return ", ".join(shown[:4]) + (f" and {len(shown) - 4} more" if len(shown) > 4 else "")


class FixSpellings(unittest.TestCase):
    """What each rule's fixes write exists on every torch release the fix claims."""

    maxDiff = None

    def check_rule(self, code: str) -> None:
        findings = findings_by_rule().get(code, [])
        if not findings:
            self.skipTest(f"{code}: its fixes write no torch name, keyword, config key or opset")
        base = base_release()
        requirement = fix_requirement(effective_rule(code))
        # One verdict per distinct problem, listing every example that shows it.
        failures: dict[str, list[str]] = defaultdict(list)
        skips: dict[str, list[str]] = defaultdict(list)
        doubts: dict[str, list[str]] = defaultdict(list)
        for finding in findings:
            item = finding.occurrence.item
            where = f"{finding.example.label}:{finding.occurrence.line}"
            covered, not_indexed = claimed_releases(finding)
            covered = [r for r in covered if finding.applies(r)]
            failing = [r for r in covered if finding.results[r][0] == MISSING]
            unknown = [r for r in covered if finding.results[r][0] == UNKNOWN]
            doubtful = [r for r in covered if finding.results[r][0] == DOUBTFUL]
            if doubtful:
                doubts[f"{code} writes {item}: {details(finding, doubtful)}"].append(where)
            if failing:
                detail = details(finding, failing)
                if finding.requirement.low is None and all(key(r) < key(base) for r in failing):
                    later = [r for r in RELEASES if finding.results[r][0] == OK and key(r) > key(failing[-1])]
                    need = f">={later[0]}" if later else "a release where it exists"
                    failures[f"{code} writes {item} with no torch requirement, but {detail}: "
                             f"the fix needs `requires` {need}"].append(where)
                else:
                    failures[f"{code} writes {item}, claimed for torch {finding.requirement}, but {detail}"
                             ].append(where)
            if not_indexed:
                skips[f"{code}: the claim starts at torch {', '.join(not_indexed)}, which is not indexed; "
                      f"{item} checked on {', '.join(covered) or 'nothing'}"].append(where)
            if unknown:
                skips[f"{code}: the index cannot tell whether {item} exists on torch {', '.join(unknown)}"].append(where)
        if requirement.low is None:
            with self.subTest(f"{code} below torch {RELEASES[0]}"):
                self.skipTest(f"{code}: its fix declares no torch requirement; checked from torch {RELEASES[0]}, "
                              f"the oldest indexed release (older releases are not indexed)")
        for message, places in sorted(doubts.items()):
            warn(f"{message} [{examples(places)}]")
        for message, places in sorted(failures.items()):
            with self.subTest(message[:120]):
                self.fail(f"{message} [{examples(places)}]")
        for message, places in sorted(skips.items()):
            with self.subTest(message[:120]):
                self.skipTest(f"{message} [{examples(places)}]")
        self._requirement_not_stricter(code, findings, requirement)

    def _requirement_not_stricter(self, code: str, findings: list[Finding], requirement: Requirement) -> None:
        """The release just below `>=A.B` should reject what the fix writes (else the bound is
        stricter than needed: a warning), and `<C.D` likewise."""
        own = [f for f in findings if f.requirement == requirement and f.occurrence.releases is None
               and not f.example.min_torch]
        if requirement.low and own:
            below = previous_minor(requirement.low)
            if below is None or below not in RELEASES:
                with self.subTest(f"{code} requirement {requirement}"):
                    self.skipTest(f"{code}: torch {below}, just below the requirement {requirement}, is not "
                                  f"indexed; cannot tell whether the requirement is stricter than needed")
            elif (all(f.results[below][0] in (OK, NOT_APPLICABLE) for f in own)
                  and any(f.results[below][0] == OK for f in own)):
                warn(f"{code}: `requires` {requirement} is stricter than needed: what the fix writes "
                     f"already works on torch {below} ("
                     + "; ".join(sorted({str(f.occurrence.item) for f in own if f.results[below][0] == OK})) + ")")
        if requirement.below and own:
            if requirement.below not in RELEASES:
                with self.subTest(f"{code} upper bound {requirement}"):
                    self.skipTest(f"{code}: torch {requirement.below}, the requirement's upper bound, is not indexed")
            elif (all(f.results[requirement.below][0] in (OK, NOT_APPLICABLE) for f in own)
                  and any(f.results[requirement.below][0] == OK for f in own)):
                warn(f"{code}: `requires` {requirement}: everything the fix writes still exists in torch "
                     f"{requirement.below}; the upper bound is stricter than needed")


# Config keys no release shipped: they lived only in nightly builds between torch 2.7 and 2.8, and
# TM103/TM104 report them for code written against those nightlies (their docs say so).
NIGHTLY_ONLY_CONFIG_KEYS = {
    ("torch._inductor.config", "aot_inductor.embed_cubin"),
    ("torch._inductor.config", "aot_inductor.emit_current_arch_binary"),
}


class RuleClaims(unittest.TestCase):
    """What a rule says about torch is what the indexed releases show."""

    def releases_around(self, rule: dict) -> tuple[str | None, str]:
        since = rule["since"]
        before = rule.get("release", {}).get("from") or previous_minor(since)
        return (before if before in RELEASES else None), since

    def need(self, release: str | None, what: str) -> bool:
        if release is None or release not in RELEASES:
            with self.subTest(what):
                self.skipTest(f"torch {release} is not indexed: cannot check {what}")
            return False
        return True

    def expect(self, condition: bool | None, message: str) -> None:
        with self.subTest(message):
            if condition is None:
                self.skipTest(f"the index cannot tell: {message}")
            self.assertTrue(condition, message)

    def check_rule(self, code: str) -> None:
        rule = rule_files()[code]
        before, since = self.releases_around(rule)
        family = rule.get("check", {}).get("family")
        params = rule.get("check", {}).get("params", {})
        kind = rule["kind"]
        checked = False
        if family == "renamed-callable":
            checked = True
            for rename in params["renames"]:
                old = rename["from"]
                new = old.rpartition(".")[0] + "." + rename["to"]
                if self.need(before, f"{old} before {since}"):
                    self.expect(torch_api.exists(before, old), f"{code}: `{old}` exists in torch {before}, before {since}")
                if self.need(since, f"{old} at {since}"):
                    if params.get("old_still_exists"):
                        self.expect(torch_api.exists(since, old), f"{code}: `{old}` still exists in torch {since} (old_still_exists)")
                    elif kind in ("removed", "renamed"):
                        self.expect(torch_api.exists(since, old) is False, f"{code}: `{old}` no longer exists in torch {since}")
                    self.expect(torch_api.exists(since, new), f"{code}: the replacement `{new}` exists in torch {since}")
        elif family == "renamed-enum-member":
            checked = True
            enum = params["enum"]
            for member in params["members"]:
                old, new = f"{enum}.{member['name']}", f"{enum}.{member['new_name']}"
                if self.need(before, f"{old} before {since}"):
                    self.expect(torch_api.exists(before, old), f"{code}: `{old}` exists in torch {before}, before {since}")
                if self.need(since, f"{old} at {since}"):
                    self.expect(torch_api.exists(since, new), f"{code}: `{new}` exists in torch {since}")
                    if kind in ("removed", "renamed"):
                        self.expect(torch_api.exists(since, old) is False, f"{code}: `{old}` is gone (renamed) in torch {since}")
        elif family == "config-option":
            checked = True
            for option in params.get("options", []):
                module, option_key = option["module"], option["key"]
                if (module, option_key) in NIGHTLY_ONLY_CONFIG_KEYS:
                    # The rule's docs say so; the index shows no release with the key, before or since.
                    for release in (before, since):
                        if self.need(release, f"{module}.{option_key} in {release}"):
                            self.expect(torch_api.config_key(release, module, option_key) is False,
                                        f"{code}: `{module}` has no key `{option_key}` in torch {release} (nightly only)")
                    continue
                if self.need(before, f"{module}.{option_key} before {since}"):
                    self.expect(torch_api.config_key(before, module, option_key),
                                f"{code}: `{module}` has the key `{option_key}` in torch {before}, before {since}")
                if not self.need(since, f"{module}.{option_key} at {since}"):
                    continue
                gone = kind in ("removed", "renamed") or "move_to" in option
                if gone:
                    self.expect(torch_api.config_key(since, module, option_key) is False,
                                f"{code}: `{module}` no longer has the key `{option_key}` in torch {since}")
                for new_key in option.get("new_keys", []):
                    self.expect(torch_api.config_key(since, module, new_key),
                                f"{code}: `{module}` has the new key `{new_key}` in torch {since}")
                if option.get("move_to"):
                    self.expect(torch_api.config_key(since, option["move_to"], option_key),
                                f"{code}: `{option['move_to']}` has the key `{option_key}` in torch {since}")
        elif family == "moved-modules":
            checked = True
            self._moved_modules(code, params, before, since)
        elif family == "missing-keyword" and kind == "changed-default":
            checked = True
            keyword = params["keyword"]
            for callee in params["callees"]:
                self._changed_default(code, rule, callee, keyword, params, before, since)
        if not checked:
            # Other families: every torch name the rule's parameters name exists somewhere.
            names = sorted({s for s in _strings(params) if re.fullmatch(r"torch(\.[A-Za-z_]\w*)+", s)})
            if not names:
                self.skipTest(f"{code}: its check ({family}) names no torch API to compare")
            for name in names:
                releases_with = [r for r in RELEASES if torch_api.exists(r, name) is not False]
                if not releases_with:
                    warn(f"{code}: `{name}`, named by its check, exists in no indexed torch release")
                elif before and torch_api.exists(before, name) is False:
                    warn(f"{code}: `{name}` does not exist in torch {before} (the release the rule upgrades from); "
                         f"it exists in {', '.join(releases_with)}")

    def _moved_modules(self, code, params, before, since) -> None:
        """Moved and deleted modules exist before `since` and not at it; a moved one exists at its
        new place; public names exist in their public module on both sides; an empty package's
        submodules exist. The lost-name tables are LostNameTables'."""
        gone = [move["from"] for move in params.get("moved", [])] + params.get("deleted", [])
        for module in gone:
            if self.need(before, f"{module} before {since}"):
                self.expect(torch_api.exists(before, module), f"{code}: `{module}` exists in torch {before}")
            if self.need(since, f"{module} at {since}"):
                self.expect(torch_api.exists(since, module) is False, f"{code}: `{module}` is gone in torch {since}")
        for move in params.get("moved", []):
            if self.need(since, f"{move['to']} at {since}"):
                self.expect(torch_api.exists(since, move["to"]), f"{code}: `{move['to']}` exists in torch {since}")
        for entry in params.get("public_names", []):
            for name in entry["names"]:
                for release in (before, since):
                    if self.need(release, f"{entry['to']}.{name} in {release}"):
                        self.expect(torch_api.exists(release, f"{entry['to']}.{name}") and
                                    torch_api.exists(release, f"{entry['module']}.{name}") is (release == before),
                                    f"{code}: `{entry['to']}.{name}` exists in torch {release}")
        for package in params.get("packages", []):
            for name in package["submodules"]:
                if self.need(since, f"{package['module']}.{name} at {since}"):
                    self.expect(torch_api.exists(since, f"{package['module']}.{name}"),
                                f"{code}: `{package['module']}.{name}` exists in torch {since}")

    def _changed_default(self, code, rule, callee, keyword, params, before, since) -> None:
        keep_old, adopt_new = params.get("keep_old"), params.get("adopt_new")

        def default(release: str) -> str | None:
            text = torch_api.keyword_default(release, callee, keyword)
            if text == "None" and params.get("none_is_default") and keyword == "opset_version":
                opset = torch_api.onnx(release).get("default_opset")
                return None if opset is None else str(opset)
            return text

        if self.need(before, f"{callee}({keyword}=) before {since}"):
            accepts = torch_api.accepts_keyword(before, callee, keyword)
            self.expect(accepts, f"{code}: `{callee}` takes `{keyword}=` in torch {before}")
            if accepts:
                old_default = params.get("old_default", keep_old)
                self.expect(default(before) == old_default,
                            f"{code}: `{callee}`'s `{keyword}` defaults to {old_default} (keep_old) in torch {before}; "
                            f"the index says {default(before)}")
        if not self.need(since, f"{callee}({keyword}=) at {since}"):
            return
        if rule.get("impact") == "deprecated":
            # The default changes after the deprecation: find the release where it does.
            flips = [r for r in RELEASES if key(r) >= key(since) and default(r) == adopt_new]
            self.expect(bool(flips), f"{code}: `{callee}`'s `{keyword}` defaults to {adopt_new} (adopt_new) in "
                                     f"some indexed release from {since}")
            if flips and rule.get("removed_in") and flips[0] != rule["removed_in"]:
                warn(f"{code}: `{callee}`'s `{keyword}` default becomes {adopt_new} in torch {flips[0]}, "
                     f"the rule's removed_in says {rule['removed_in']}")
        else:
            self.expect(default(since) == adopt_new,
                        f"{code}: `{callee}`'s `{keyword}` defaults to {adopt_new} (adopt_new) in torch {since}; "
                        f"the index says {default(since)}")


class BinaryAgrees(unittest.TestCase):
    """The binary reports the rule files' requirements and examples (what FixSpellings read)."""

    def test_rule_all_matches_rule_files(self):
        if not BINARY:
            self.skipTest("TORCHMIGRATE_BIN is not set")
        if "TORCHMIGRATE_RULES_DIR" in os.environ:
            self.skipTest("rules come from TORCHMIGRATE_RULES_DIR, not the binary")
        from_binary = binary_rules()
        for code, rule in rule_files().items():
            with self.subTest(code):
                self.assertIn(code, from_binary)
                self.assertEqual(str(fix_requirement(from_binary[code])), str(fix_requirement(rule)))
                for name in ("before", "after", "after_adopt_new"):
                    self.assertEqual(from_binary[code]["docs"].get(name) or "", rule["docs"].get(name) or "")


class IndexFacts(unittest.TestCase):
    """Facts the catalog relies on, read from the index: if one of these fails, the index or
    the query code is wrong, not the catalog."""

    def need(self, *releases):
        for release in releases:
            if release not in RELEASES:
                self.skipTest(f"torch {release} is not indexed")

    def test_export_strict(self):
        self.need("2.1", "2.2", "2.7", "2.8")
        self.assertFalse(torch_api.accepts_keyword("2.1", "torch.export.export", "strict"))
        self.assertTrue(torch_api.accepts_keyword("2.2", "torch.export.export", "strict"))
        self.assertEqual(torch_api.keyword_default("2.7", "torch.export.export", "strict"), "True")
        self.assertEqual(torch_api.keyword_default("2.8", "torch.export.export", "strict"), "False")

    def test_export_for_inference_and_training(self):
        self.need("2.7", "2.8")
        self.assertTrue(torch_api.exists("2.7", "torch.export.export_for_inference"))
        self.assertFalse(torch_api.exists("2.8", "torch.export.export_for_inference"))
        self.assertTrue(torch_api.exists("2.8", "torch.export.export_for_training"))
        self.assertTrue(torch_api.exists("2.8", "torch.export.ExportedProgram.run_decompositions"))
        self.assertEqual(torch_api.load("2.8").return_class("torch.export.export_for_training").qualname,
                         "torch.export.exported_program.ExportedProgram")

    def test_onnx(self):
        self.need("2.7", "2.8", "2.9")
        self.assertTrue(torch_api.accepts_keyword("2.7", "torch.onnx.export", "dynamo"))
        self.assertEqual(torch_api.keyword_default("2.8", "torch.onnx.export", "dynamo"), "False")
        self.assertEqual(torch_api.keyword_default("2.9", "torch.onnx.export", "dynamo"), "True")
        self.assertEqual(torch_api.onnx("2.7")["default_opset"], 17)
        self.assertEqual(torch_api.onnx("2.8")["default_opset"], 18)
        self.assertEqual(torch_api.onnx("2.8")["torchscript_max_opset"], 20)

    def test_config_keys(self):
        self.need("2.8")
        self.assertTrue(torch_api.config_key("2.8", "torch._inductor.config", "triton.cudagraphs"))
        self.assertTrue(torch_api.config_key("2.8", "torch._inductor.config", "aot_inductor.embed_kernel_binary"))
        self.assertTrue(torch_api.exists("2.8", "torch._inductor.config.aot_inductor.embed_kernel_binary"))
        self.assertFalse(torch_api.config_key("2.8", "torch._inductor.config", "no_such_key"))
        self.assertIsNone(torch_api.config_key("2.8", "torch.export", "strict"))

    def test_reader_resolves_aliases(self):
        reader = PythonReader("import torch.export as te\nfrom torch.export import export_for_training as eft\n"
                              "import torch\n"
                              "te.export(m, a, strict=True)\neft(m, a).run_decompositions(decomp_table=t)\n"
                              "torch._inductor.config.patch({'triton.cudagraphs': True})\n")
        items = {str(o.item) for o in reader.occurrences}
        self.assertIn("`torch.export.export(..., strict=)`", items)
        self.assertIn("`torch.export.export_for_training().run_decompositions(..., decomp_table=)`", items)
        self.assertIn("config `torch._inductor.config.triton.cudagraphs`", items)

    def test_version_guards(self):
        self.need("2.7", "2.8")
        reader = PythonReader("import torch\nif torch.__version__ >= '2.8':\n    torch.a.b()\nelse:\n    torch.c.d()\n")
        guards = {str(o.item): o.releases for o in reader.occurrences}
        self.assertIn("2.8", guards["`torch.a.b`"])
        self.assertNotIn("2.7", guards["`torch.a.b`"])
        self.assertIn("2.7", guards["`torch.c.d`"])

    def test_import_with_fallback(self):
        reader = PythonReader("try:\n    from torch.new import x\nexcept ImportError:\n    from torch.old import x\n")
        guards = {str(o.item): o.releases for o in reader.occurrences}
        self.assertEqual(frozenset(), guards["`torch.new.x`"])
        self.assertIsNone(guards["`torch.old.x`"])


class LostNameTables(unittest.TestCase):
    """The `namespaces` tables of `moved-modules` rules are what scripts/lost_names.py writes
    from the index."""

    def test_tables_match_the_index(self):
        script = SOURCE_DIR / "scripts" / "lost_names.py"
        for code, rule in sorted(rule_files().items()):
            if rule.get("check", {}).get("family") != "moved-modules" or "namespaces" not in rule["check"]["params"]:
                continue
            with self.subTest(code):
                path = RULES_DIR / f"{code}.json"
                result = subprocess.run([sys.executable, str(script), str(path), "--check"], capture_output=True,
                                        text=True, env={**os.environ, "TORCH_API_INDEX": str(torch_api.INDEX)})
                self.assertEqual(0, result.returncode, result.stderr)


class StarExportTable(unittest.TestCase):
    """What `from torch.MODULE import *` binds (src/python/torch_star_exports.cpp) is what
    scripts/star_exports.py writes from the index."""

    def test_table_matches_the_index(self):
        script = SOURCE_DIR / "scripts" / "star_exports.py"
        result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True,
                                env={**os.environ, "TORCH_API_INDEX": str(torch_api.INDEX)})
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)


class TheseTestsCanFail(unittest.TestCase):
    """A copy of the catalog with one claim made false must fail: the checks above are live."""

    def run_with_rules(self, mutate, test_name: str) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory(prefix="torchmigrate-rules-") as directory:
            rules = Path(directory) / "rules"
            shutil.copytree(RULES_DIR, rules)
            mutate(rules)
            env = dict(os.environ, TORCHMIGRATE_RULES_DIR=str(rules), TORCHMIGRATE_SOURCE_DIR=str(SOURCE_DIR))
            env.pop("TORCHMIGRATE_BIN", None)
            return subprocess.run([sys.executable, "-m", "unittest", f"test_api_index.{test_name}"],
                                  cwd=Path(__file__).resolve().parent, env=env, capture_output=True, text=True,
                                  timeout=600)

    @staticmethod
    def edit(rules: Path, code: str, change) -> None:
        path = rules / f"{code}.json"
        rule = json.loads(path.read_text())
        change(rule)
        path.write_text(json.dumps(rule, indent=2))

    def test_a_removed_name_that_still_exists_fails(self):
        if "TM101" not in rule_files() or "2.8" not in RELEASES:
            self.skipTest("needs TM101 and torch 2.8 in the index")

        def mutate(rules):
            def change(rule):
                rule["check"]["params"]["renames"][0]["from"] = "torch.export.export_for_training"
            self.edit(rules, "TM101", change)

        result = self.run_with_rules(mutate, "RuleClaims.test_TM101")
        self.assertNotEqual(result.returncode, 0, result.stderr)
        self.assertIn("`torch.export.export_for_training` no longer exists in torch 2.8", result.stderr)

    def test_a_missing_requirement_fails(self):
        if "TM303" not in rule_files() or "2.4" not in RELEASES:
            self.skipTest("needs TM303 and torch 2.4 in the index")

        def mutate(rules):
            def change(rule):
                rule["fix"].pop("requires", None)
            self.edit(rules, "TM303", change)

        result = self.run_with_rules(mutate, "FixSpellings.test_TM303")
        self.assertNotEqual(result.returncode, 0, result.stderr)
        self.assertIn("with no torch requirement", result.stderr)


def _add_rule_tests() -> None:
    for code in sorted(python_rules()):
        setattr(FixSpellings, f"test_{code}", lambda self, code=code: self.check_rule(code))
        setattr(RuleClaims, f"test_{code}", lambda self, code=code: self.check_rule(code))


_add_rule_tests()

if __name__ == "__main__":
    unittest.main()
