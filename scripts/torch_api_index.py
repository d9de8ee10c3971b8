#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build the index of one installed torch release's public Python API, as data.

    scripts/torch_api_index.py TREE --release 2.8 --into api-index/torch-api.jsonl.xz
        --source REPO@COMMIT:PATH --wheel TAG   # add (or replace) 2.8 in the committed index
    scripts/torch_api_index.py TREE --release 2.8 -o torch-2.8.json.xz   # 2.8 alone, one document

TREE is a directory holding an installed `torch/` package (the `.py` and `.pyi` files as a wheel
installs them; a `site-packages` directory works). Nothing is imported: every file is read with
`ast`, so any release can be indexed on any Python 3.11 or later, without torch installed.

For each module (dotted name from its path, `__init__` naming the package) the index records the
statically given `__all__`; the top-level names it defines or re-exports (def, class, assignment,
`import`, `from ... import`, including those inside top-level `if`/`try` blocks); for every
function and method the parameters in order with their kind and default (source text); classes
with their bases and members; and, for config modules (those calling `install_config_module`),
every config key with nested classes flattened (`triton.cudagraphs`). Alongside: the release's
ONNX opset constants. See api-index/README.md for the format and api-index/torch_api.py for the
queries.

Output is deterministic: keys sorted, no timestamps, xz-compressed when the name ends in `.xz`.
"""
from __future__ import annotations

import argparse
import ast
import json
import lzma
import os
import re
import sys
from pathlib import Path

FORMAT = 1

# Trees left out: the private test harness and vendored third-party code. Nothing a migration
# rewrites to lives there, and together they are a large share of the source.
SKIP_PREFIXES = (
    "torch.testing._internal",
    "torch.utils.hipify",
    "torch._vendor",
    "torch.include",
    "torch.share",
)

# Modules whose configuration is installed by `install_config_module(sys.modules[__name__])`. Any
# module with that call is treated as a config module; these are named so the index says so even
# where a release installs the config another way.
CONFIG_MODULES = (
    "torch._dynamo.config",
    "torch._inductor.config",
    "torch._functorch.config",
    "torch.fx.experimental._config",
    "torch.export._config",
)

DEFAULT_TEXT_LIMIT = 80

# Parameter kinds, one letter each.
POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = "p", "k", "a", "o", "w"


class Source(str):
    """Module text with its lines kept as UTF-8 bytes, so that a node's text is a slice (AST
    column offsets count bytes); `ast.get_source_segment` splits the whole file on every call."""

    def __new__(cls, text: str):
        self = super().__new__(cls, text)
        self.lines = [line.encode() for line in text.splitlines(keepends=True)]
        return self

    def segment(self, node: ast.AST) -> str | None:
        try:
            first, last = node.lineno - 1, node.end_lineno - 1
            start, end = node.col_offset, node.end_col_offset
        except AttributeError:
            return None
        if end is None or last >= len(self.lines):
            return None
        if first == last:
            return self.lines[first][start:end].decode(errors="replace")
        parts = [self.lines[first][start:]] + self.lines[first + 1:last] + [self.lines[last][:end]]
        return b"".join(parts).decode(errors="replace")


def source_text(source: str, node: ast.AST | None, limit: int = DEFAULT_TEXT_LIMIT) -> str | None:
    if node is None:
        return None
    text = source.segment(node) if isinstance(source, Source) else ast.get_source_segment(source, node)
    if text is None:
        text = ast.unparse(node)
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a Name/Attribute chain (the callee of a decorator call too), else None."""
    if isinstance(node, ast.Call):
        node = node.func
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def absolute_module(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module a `from` import names, for a statement in `module`."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    base = ".".join(parts)
    return f"{base}.{name}" if name else base


def signature(source: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict:
    args = node.args
    params: list[list] = []

    def add(arg: ast.arg, kind: str, default: ast.AST | None) -> None:
        entry = [arg.arg, kind]
        if default is not None:
            entry.append(source_text(source, default))
        params.append(entry)

    positional = args.posonlyargs + args.args
    defaults: list[ast.AST | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for index, arg in enumerate(positional):
        add(arg, POSITIONAL_ONLY if index < len(args.posonlyargs) else POSITIONAL_OR_KEYWORD, defaults[index])
    if args.vararg:
        add(args.vararg, VAR_POSITIONAL, None)
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        add(arg, KEYWORD_ONLY, default)
    if args.kwarg:
        add(args.kwarg, VAR_KEYWORD, None)
    out: dict = {"p": params}
    returns = return_name(node.returns)
    if returns:
        out["r"] = returns
    decorators = sorted({name for name in (dotted(d) for d in node.decorator_list) if name})
    if decorators:
        out["d"] = decorators
    return out


def return_name(node: ast.AST | None) -> str | None:
    """A return annotation that names one class (`ExportedProgram`, `"torch.Tensor"`), kept so
    that a chained call can be followed; anything else (`Optional[...]`, tuples) is left out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.strip()
        return text if re.fullmatch(r"[A-Za-z_][\w.]*", text) else None
    name = dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    return name if name and name != "None" else None


def assigned_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in assigned_names(element)]
    if isinstance(target, ast.Starred):
        return assigned_names(target.value)
    return []


def static_strings(node: ast.AST) -> list[str] | None:
    """The strings of a literal list/tuple (or a `+` of such), else None."""
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        for element in node.elts:
            if isinstance(element, ast.Constant) and isinstance(element.value, str):
                out.append(element.value)
            else:
                return None
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = static_strings(node.left), static_strings(node.right)
        if left is not None and right is not None:
            return left + right
    return None


class ModuleIndexer:
    def __init__(self, module: str, is_package: bool, source: str, tree: ast.Module):
        self.module = module
        self.is_package = is_package
        self.source = source
        self.names: dict[str, str] = {}
        self.all: list[str] | None = None
        self.all_dynamic = False
        self.stars: list[str] = []
        self.functions: dict[str, list[dict]] = {}
        self.classes: dict[str, dict] = {}
        self.config_call = False
        self.tree = tree

    # Module level ---------------------------------------------------------------------------

    def run(self) -> None:
        self.block(self.tree.body)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                name = dotted(node.func)
                if name and name.split(".")[-1] == "install_config_module":
                    self.config_call = True

    def bind(self, name: str, kind: str) -> None:
        # Names imported from outside torch (typing, os, third-party) are not torch's API.
        if kind.startswith("=") and not (kind == "=torch" or kind.startswith("=torch.")):
            return
        # A def or class wins over an import or assignment of the same name elsewhere at module
        # level (fallback branches, `TYPE_CHECKING` blocks); otherwise the first binding stays.
        old = self.names.get(name)
        if old is None or (kind in ("f", "c") and old not in ("f", "c")):
            self.names[name] = kind

    def block(self, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.bind(node.name, "f")
                self.functions.setdefault(node.name, []).append(signature(self.source, node))
            elif isinstance(node, ast.ClassDef):
                self.bind(node.name, "c")
                self.klass(node, node.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.bind(alias.asname, "=" + alias.name)
                    else:
                        top = alias.name.split(".")[0]
                        self.bind(top, "=" + top)
            elif isinstance(node, ast.ImportFrom):
                base = absolute_module(self.module, self.is_package, node.level, node.module)
                for alias in node.names:
                    if alias.name == "*":
                        if base not in self.stars:
                            self.stars.append(base)
                        continue
                    self.bind(alias.asname or alias.name, "=" + f"{base}.{alias.name}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in assigned_names(target):
                        if name == "__all__":
                            self.set_all(node)
                        else:
                            self.bind(name, "v")
            elif isinstance(node, ast.TypeAlias) if hasattr(ast, "TypeAlias") else False:
                self.bind(node.name.id, "v")
            elif isinstance(node, ast.If):
                self.block(node.body)
                self.block(node.orelse)
            elif isinstance(node, ast.Try) or (hasattr(ast, "TryStar") and isinstance(node, ast.TryStar)):
                self.block(node.body)
                for handler in node.handlers:
                    self.block(handler.body)
                self.block(node.orelse)
                self.block(node.finalbody)
            elif isinstance(node, ast.With):
                self.block(node.body)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                # `__all__.extend([...])` / `__all__ += [...]` handled as dynamic additions
                func = node.value.func
                if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                        and func.value.id == "__all__" and func.attr in ("extend", "append")):
                    values = None
                    if func.attr == "extend" and node.value.args:
                        values = static_strings(node.value.args[0])
                    elif func.attr == "append" and node.value.args:
                        arg = node.value.args[0]
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            values = [arg.value]
                    if values is not None and self.all is not None:
                        self.all.extend(values)
                    else:
                        self.all_dynamic = True

    def set_all(self, node: ast.stmt) -> None:
        value = getattr(node, "value", None)
        values = static_strings(value) if value is not None else None
        if values is None:
            self.all_dynamic = True
            return
        if isinstance(node, ast.AugAssign):
            if self.all is None:
                self.all_dynamic = True
                return
            self.all.extend(values)
        else:
            self.all = list(values)

    # Classes ----------------------------------------------------------------------------------

    def klass(self, node: ast.ClassDef, qualname: str) -> None:
        members: dict[str, str] = {}
        entry: dict = {"b": [source_text(self.source, base, 120) for base in node.bases], "n": members}
        decorators = sorted({name for name in (dotted(d) for d in node.decorator_list) if name})
        if decorators:
            entry["d"] = decorators
        self.classes[qualname] = entry

        def walk(body: list[ast.stmt]) -> None:
            for item in body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.setdefault(item.name, "f")
                    self.functions.setdefault(f"{qualname}.{item.name}", []).append(signature(self.source, item))
                elif isinstance(item, ast.ClassDef):
                    members[item.name] = "c"
                    self.klass(item, f"{qualname}.{item.name}")
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    for target in targets:
                        for name in assigned_names(target):
                            members.setdefault(name, "v")
                elif isinstance(item, ast.If):
                    walk(item.body)
                    walk(item.orelse)
                elif isinstance(item, ast.Try):
                    walk(item.body)
                    for handler in item.handlers:
                        walk(handler.body)
                    walk(item.orelse)
                    walk(item.finalbody)

        walk(node.body)

    # Config keys ------------------------------------------------------------------------------

    def config_keys(self) -> dict[str, str | None]:
        """Keys as `install_config_module` sees them: non-dunder module-level values, classes
        flattened into `Class.key`; imports and functions are not config."""
        keys: dict[str, str | None] = {}

        def value_of(node: ast.stmt) -> str | None:
            value = getattr(node, "value", None)
            return source_text(self.source, value, 60) if value is not None else None

        def visit(body: list[ast.stmt], prefix: str) -> None:
            for node in body:
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        for name in assigned_names(target):
                            if name.startswith("__") and name.endswith("__"):
                                continue
                            if isinstance(node, ast.AnnAssign) and node.value is None:
                                continue
                            keys[prefix + name] = value_of(node)
                elif isinstance(node, ast.ClassDef):
                    visit(node.body, f"{prefix}{node.name}.")
                elif isinstance(node, ast.If):
                    visit(node.body, prefix)
                    visit(node.orelse, prefix)
                elif isinstance(node, ast.Try):
                    visit(node.body, prefix)
                    for handler in node.handlers:
                        visit(handler.body, prefix)

        visit(self.tree.body, "")
        # Names bound by imports and defs at module level are not config values.
        for name, kind in self.names.items():
            if kind == "f" or kind.startswith("="):
                keys.pop(name, None)
        return keys

    def result(self) -> dict:
        out: dict = {"n": dict(sorted(self.names.items()))}
        if self.all is not None and not self.all_dynamic:
            out["all"] = self.all
        elif self.all is not None or self.all_dynamic:
            out["all_dynamic"] = True
            if self.all is not None:
                out["all"] = self.all
        if self.stars:
            out["*"] = self.stars
        if self.functions:
            out["fn"] = {name: sigs for name, sigs in sorted(self.functions.items())}
        if self.classes:
            out["cl"] = dict(sorted(self.classes.items()))
        if self.config_call or self.module in CONFIG_MODULES:
            out["cfg"] = dict(sorted(self.config_keys().items()))
        return out


def merge_stub(py: dict, pyi: dict) -> dict:
    """A module with both a `.py` and a `.pyi`: names from both; the `.py` signatures win, the
    stub supplies what the `.py` does not define (builtins bound at import time)."""
    names = dict(pyi.get("n", {}))
    names.update(py.get("n", {}))
    out = dict(py)
    out["n"] = dict(sorted(names.items()))
    for key in ("fn", "cl"):
        merged = dict(pyi.get(key, {}))
        merged.update(py.get(key, {}))
        if merged:
            out[key] = dict(sorted(merged.items()))
    if "all" not in out and "all" in pyi:
        out["all"] = pyi["all"]
    stars = list(py.get("*", []))
    for star in pyi.get("*", []):
        if star not in stars:
            stars.append(star)
    if stars:
        out["*"] = stars
    return out


def module_name(relative: Path) -> tuple[str, bool]:
    parts = list(relative.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def read_source(path: Path) -> str:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    # Trees installed on Windows and committed through git may carry CRLF line ends.
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


def literal_assignments(tree: ast.Module) -> dict:
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and getattr(node, "value", None) is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError):
                continue
            if isinstance(value, (int, str, float, bool)) or value is None:
                for target in targets:
                    for name in assigned_names(target):
                        out[name] = value
    return out


def onnx_facts(root: Path, modules: dict) -> dict:
    """ONNX opset support: the constants of `torch/onnx/_constants.py` and what they mean for
    each exporter."""
    facts: dict = {}
    constants_file = root / "torch" / "onnx" / "_constants.py"
    if constants_file.exists():
        constants = literal_assignments(ast.parse(read_source(constants_file)))
        facts["constants"] = {k: v for k, v in sorted(constants.items()) if isinstance(v, int) and not isinstance(v, bool)}
        c = facts["constants"]
        # Before ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET existed (torch < 2.1) the TorchScript exporter
        # was the only one, and ONNX_MAX_OPSET bounded what it accepted (a ValueError above it).
        facts["torchscript_max_opset"] = c.get("ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET", c.get("ONNX_MAX_OPSET"))
        facts["max_opset"] = c.get("ONNX_MAX_OPSET")
        facts["default_opset"] = c.get("ONNX_DEFAULT_OPSET")
    symbolic = set()
    for directory in (root / "torch" / "onnx", root / "torch" / "onnx" / "_internal" / "torchscript_exporter"):
        if directory.is_dir():
            for path in directory.glob("symbolic_opset*.py"):
                match = re.fullmatch(r"symbolic_opset(\d+)\.py", path.name)
                if match:
                    symbolic.add(int(match.group(1)))
    if symbolic:
        facts["symbolic_opsets"] = sorted(symbolic)
    dynamo_constants = root / "torch" / "onnx" / "_internal" / "exporter" / "_constants.py"
    if dynamo_constants.exists():
        values = literal_assignments(ast.parse(read_source(dynamo_constants)))
        if isinstance(values.get("TORCHLIB_OPSET"), int):
            facts["dynamo_torchlib_opset"] = values["TORCHLIB_OPSET"]
    return facts


def version_info(root: Path) -> dict:
    version_file = root / "torch" / "version.py"
    values = literal_assignments(ast.parse(read_source(version_file))) if version_file.exists() else {}
    info = {"version": values.get("__version__"), "git_version": values.get("git_version")}
    for name in ("cuda", "hip", "rocm", "xpu"):
        if values.get(name):
            info[name] = values[name]
    return info


def build(tree_root: Path, release: str, provenance: dict | None = None) -> dict:
    root = tree_root
    if not (root / "torch").is_dir():
        raise SystemExit(f"{tree_root}: no torch/ package in it")
    found: dict[str, dict[str, Path]] = {}
    for path in sorted((root / "torch").rglob("*")):
        if path.suffix not in (".py", ".pyi") or not path.is_file():
            continue
        relative = path.relative_to(root)
        if any(not part.isidentifier() for part in relative.with_suffix("").parts):
            continue
        name, _ = module_name(relative)
        if any(name == prefix or name.startswith(prefix + ".") for prefix in SKIP_PREFIXES):
            continue
        found.setdefault(name, {})[path.suffix] = path
    modules: dict[str, dict] = {}
    failures = []
    for name in sorted(found):
        results = {}
        for suffix, path in sorted(found[name].items()):
            source = Source(read_source(path))
            try:
                tree = ast.parse(source, filename=str(path))
            except SyntaxError as error:
                failures.append(f"{path.relative_to(root)}: {error.msg}")
                continue
            indexer = ModuleIndexer(name, path.stem == "__init__", source, tree)
            indexer.run()
            results[suffix] = indexer.result()
        if ".py" in results and ".pyi" in results:
            modules[name] = merge_stub(results[".py"], results[".pyi"])
            modules[name]["stub"] = True
        elif results:
            only = next(iter(results))
            modules[name] = results[only]
            if only == ".pyi":
                modules[name]["stub"] = True
    # torch/__init__.py binds every public function of torch._C._VariableFunctions at import
    # time (`for name in dir(_C._VariableFunctions): ... globals()[name] = obj`): say so.
    if "torch" in modules and "torch._C._VariableFunctions" in modules:
        stars = modules["torch"].setdefault("*", [])
        if "torch._C._VariableFunctions" not in stars:
            stars.append("torch._C._VariableFunctions")
    out = {
        "format": FORMAT,
        "release": release,
        "torch": version_info(root),
        "onnx": onnx_facts(root, modules),
        "modules": modules,
    }
    if provenance:
        out["provenance"] = provenance
    if failures:
        out["unparsed"] = failures
    return out


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


def compress(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=9 | lzma.PRESET_EXTREME)


def dump(index: dict, output: Path) -> None:
    """One release's index as one JSON document."""
    data = json.dumps(index, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(compress(data) if output.name.endswith(".xz") else data)


def read_combined(path: Path) -> tuple[dict, dict[str, dict]]:
    """The combined index: its header and, per release, the modules (references resolved).
    Read by the query module's reader, uncached: this script rewrites the file."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "api-index"))
    import torch_api  # noqa: E402 (the query module lives beside the index)

    return torch_api._read.__wrapped__(path)


def write_combined(path: Path, releases: list[dict], modules: dict[str, dict[str, dict]]) -> None:
    """The combined index, JSON lines: a header naming every release with its provenance and
    ONNX facts, then one line per (module, release), ordered by module and then release, where a
    module unchanged since the previous release that has it is the string of that release."""
    releases = sorted(releases, key=lambda entry: release_key(entry["release"]))
    order = [entry["release"] for entry in releases]
    lines = [json.dumps({"format": FORMAT, "releases": releases}, sort_keys=True, separators=(",", ":"),
                        ensure_ascii=False)]
    names = sorted(set().union(*(set(modules[release]) for release in order)))
    for name in names:
        previous_release, previous = None, None
        for release in order:
            entry = modules[release].get(name)
            if entry is None:
                previous_release, previous = None, None
                continue
            if previous is not None and entry == previous:
                value: object = previous_release
            else:
                value = entry
                previous_release, previous = release, entry
            lines.append(json.dumps([name, release, value], sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(compress(data) if path.name.endswith(".xz") else data)


def merge_into(path: Path, index: dict) -> None:
    """Add one release to the combined index at `path` (replacing that release if present)."""
    releases: list[dict] = []
    modules: dict[str, dict] = {}
    if path.exists():
        header, modules = read_combined(path)
        releases = [entry for entry in header["releases"] if entry["release"] != index["release"]]
        modules.pop(index["release"], None)
    releases.append({key: value for key, value in index.items() if key != "modules"})
    modules[index["release"]] = index["modules"]
    write_combined(path, releases, modules)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="directory holding the installed torch/ package")
    parser.add_argument("--release", required=True, help="the release this tree is, MAJOR.MINOR (e.g. 2.8)")
    parser.add_argument("-o", "--output", type=Path, help="write this release alone to a file (.json or .json.xz)")
    parser.add_argument("--into", type=Path, help="add this release to the combined index (api-index/torch-api.jsonl.xz)")
    parser.add_argument("--source", help="where the tree came from (recorded in the index)")
    parser.add_argument("--wheel", help="the wheel's platform tag, if known (recorded in the index)")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"\d+\.\d+", args.release):
        parser.error("--release is MAJOR.MINOR")
    if not args.output and not args.into:
        parser.error("name an output: -o FILE and/or --into COMBINED")
    provenance = {}
    if args.source:
        provenance["source"] = args.source
    if args.wheel:
        provenance["wheel"] = args.wheel
    index = build(args.tree, args.release, provenance or None)
    version = index["torch"].get("version") or ""
    if not re.match(re.escape(args.release) + r"(\.|$)", version):
        print(f"warning: {args.tree} is torch {version!r}, not {args.release}", file=sys.stderr)
    for failure in index.get("unparsed", []):
        print(f"warning: not parsed: {failure}", file=sys.stderr)
    for output in (args.output, args.into):
        if output is None:
            continue
        if output == args.into:
            merge_into(output, index)
        else:
            dump(index, output)
        print(f"{output}: torch {version} as {args.release}, {len(index['modules'])} modules, "
              f"{os.path.getsize(output)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
