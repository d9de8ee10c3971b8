# SPDX-License-Identifier: MIT
"""Queries over the per-release index of torch's Python API (api-index/torch-api.jsonl.xz).

    import torch_api
    torch_api.releases()                                   # ['1.13', '2.0', ..., '2.11']
    torch_api.exists("2.8", "torch.export.export_for_training")          # True
    torch_api.signature("2.8", "torch.export.export")                    # [[Param(...), ...]]
    torch_api.accepts_keyword("2.1", "torch.export.export", "strict")    # False
    torch_api.keyword_default("2.8", "torch.export.export", "strict")    # 'False'
    torch_api.config_key("2.8", "torch._inductor.config", "triton.cudagraphs")  # True
    torch_api.onnx("2.8")["torchscript_max_opset"]                       # 20

Names are resolved the way attribute access resolves them: through re-exports (`from .x import
y`), star imports, submodules, class members and base classes, so `torch.export.ExportedProgram.
run_decompositions` is found although the class is defined in `torch.export.exported_program`.

Answers are True, False, or None where the index cannot tell: the name goes through a value
(an attribute of an object), a module-level `__getattr__`, or a module outside torch.

Stdlib only. The index file can be replaced with the environment variable TORCH_API_INDEX.
"""
from __future__ import annotations

import functools
import json
import lzma
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

INDEX = Path(os.environ.get("TORCH_API_INDEX", Path(__file__).resolve().parent / "torch-api.jsonl.xz"))

KIND_NAMES = {
    "p": "positional-only",
    "k": "positional-or-keyword",
    "a": "var-positional",
    "o": "keyword-only",
    "w": "var-keyword",
}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # one of KIND_NAMES' values
    default: str | None  # source text; None when the parameter has no default

    @property
    def keyword(self) -> bool:
        """Can be passed as `name=`."""
        return self.kind in ("positional-or-keyword", "keyword-only")


@dataclass(frozen=True)
class Node:
    """What a dotted name resolves to."""
    kind: str  # module, class, function, value, config, external
    module: str  # the module defining it
    name: str = ""  # qualified name inside the module ("" for the module itself)

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


UNKNOWN = Node("unknown", "")

# Standard base classes and the public members they give a torch class deriving from them.
_ENUM = {"name", "value"}
EXTERNAL_BASES: dict[str, set[str]] = {
    "Enum": _ENUM, "IntEnum": _ENUM | {"real", "imag", "numerator", "denominator", "bit_length", "to_bytes"},
    "Flag": _ENUM, "IntFlag": _ENUM, "StrEnum": _ENUM,
    "Exception": {"args", "with_traceback", "add_note"}, "RuntimeError": {"args", "with_traceback", "add_note"},
    "ValueError": {"args", "with_traceback", "add_note"}, "TypeError": {"args", "with_traceback", "add_note"},
    "Warning": {"args", "with_traceback"}, "UserWarning": {"args", "with_traceback"},
    "NamedTuple": {"_asdict", "_replace", "_fields", "_make", "count", "index"},
    "Protocol": set(), "Generic": set(), "ABC": set(), "TypedDict": set(),
}


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


@functools.lru_cache(maxsize=None)
def _read(path: Path = INDEX) -> tuple[dict, dict[str, dict]]:
    raw = path.read_bytes()
    text = (lzma.decompress(raw) if path.name.endswith(".xz") else raw).decode()
    lines = text.splitlines()
    header = json.loads(lines[0])
    modules: dict[str, dict] = {entry["release"]: {} for entry in header["releases"]}
    for line in lines[1:]:
        module, release, entry = json.loads(line)
        if isinstance(entry, str):  # unchanged since that release
            entry = modules[entry][module]
        modules[release][module] = entry
    return header, modules


def releases() -> list[str]:
    """The indexed releases, oldest first."""
    header, _ = _read()
    return sorted((entry["release"] for entry in header["releases"]), key=release_key)


def info(release: str) -> dict:
    """The release's header: torch `version`/`git_version`, provenance, ONNX facts."""
    header, _ = _read()
    for entry in header["releases"]:
        if entry["release"] == release:
            return entry
    raise KeyError(f"torch {release} is not indexed (indexed: {', '.join(releases())})")


def onnx(release: str) -> dict:
    """ONNX opset facts: `constants` (torch/onnx/_constants.py), `max_opset`, `default_opset`,
    `torchscript_max_opset` (what the TorchScript exporter supports), `symbolic_opsets`,
    `dynamo_torchlib_opset` (the opset the dynamo exporter builds, where it exists)."""
    return info(release).get("onnx", {})


@functools.lru_cache(maxsize=None)
def load(release: str) -> "ReleaseIndex":
    info(release)
    return ReleaseIndex(release, _read()[1][release])


class ReleaseIndex:
    def __init__(self, release: str, modules: dict[str, dict]):
        self.release = release
        self.modules = modules

    # Resolution ---------------------------------------------------------------------------

    def resolve(self, qualname: str) -> Node | None:
        """The node `qualname` names; None when it does not exist, UNKNOWN when the index
        cannot tell."""
        return self.resolve_depth(qualname, -1)

    def member(self, node: Node, name: str, depth: int = 0) -> Node | None:
        if depth > 30:
            return UNKNOWN
        if node.kind == "module":
            return self._module_member(node.module, name, depth)
        if node.kind == "class":
            return self._class_member(node.module, node.name, name, depth)
        if node.kind == "config":
            prefix = f"{node.name}.{name}"
            keys = self.modules[node.module].get("cfg", {})
            if prefix in keys or any(key.startswith(prefix + ".") for key in keys):
                return Node("config", node.module, prefix)
            return None
        return UNKNOWN  # attributes of functions, values, outside modules

    def _module_member(self, module: str, name: str, depth: int, seen: frozenset = frozenset()) -> Node | None:
        entry = self.modules.get(module)
        if entry is None:
            return UNKNOWN
        kind = entry["n"].get(name)
        config = entry.get("cfg")
        if kind == "f":
            return Node("function", module, name)
        if kind == "c":
            return Node("class", module, name)
        if kind == "v":
            if config is not None and name in config:
                return Node("config", module, name)
            return Node("value", module, name)
        if kind is not None and kind.startswith("="):
            target = kind[1:]
            if target == f"{module}.{name}" and target not in self.modules:
                return UNKNOWN
            resolved = self.resolve_depth(target, depth + 1)
            return resolved if resolved is not None else None
        if config is not None and any(key.startswith(name + ".") for key in config):
            return Node("config", module, name)
        if f"{module}.{name}" in self.modules:
            return Node("module", f"{module}.{name}")
        for star in entry.get("*", []):
            if star in seen:
                continue
            star_entry = self.modules.get(star)
            if star_entry is None:
                continue
            # `from m import *` takes what `m.__all__` lists, underscore names included; without
            # an `__all__`, only the names without a leading underscore.
            public = star_entry.get("all")
            if public is not None and name not in public:
                continue
            if public is None and name.startswith("_") and star != "torch._C._VariableFunctions":
                continue
            found = self._module_member(star, name, depth + 1, seen | {module})
            if found is not None and found is not UNKNOWN:
                return found
        if "__getattr__" in entry["n"]:
            return UNKNOWN
        return None

    def resolve_depth(self, qualname: str, depth: int) -> Node | None:
        """As resolve(), from inside a resolution `depth` steps deep (cycles end it)."""
        if depth > 30:
            return UNKNOWN
        parts = qualname.split(".")
        for length in range(len(parts), 0, -1):
            module = ".".join(parts[:length])
            if module in self.modules:
                break
        else:
            return None if parts[0] == "torch" else UNKNOWN
        node: Node | None = Node("module", module)
        for part in parts[length:]:
            node = self.member(node, part, depth + 1)
            if node is None or node is UNKNOWN:
                return node
        return node

    def _class_member(self, module: str, klass: str, name: str, depth: int) -> Node | None:
        entry = self.modules[module].get("cl", {}).get(klass)
        if entry is None:
            return UNKNOWN
        kind = entry["n"].get(name)
        if kind == "f":
            return Node("function", module, f"{klass}.{name}")
        if kind == "c":
            return Node("class", module, f"{klass}.{name}")
        if kind == "v":
            return Node("value", module, f"{klass}.{name}")
        if name in self.external_bases(Node("class", module, klass)):
            return Node("value", module, f"{klass}.{name}")
        if name.startswith("__") and name.endswith("__"):
            return UNKNOWN  # object's and the metaclass's
        unknown = False
        for base in self.bases(Node("class", module, klass), depth):
            if base is UNKNOWN:
                unknown = True
                continue
            found = self._class_member(base.module, base.name, name, depth + 1)
            if found is UNKNOWN:
                unknown = True
            elif found is not None:
                return found
        if unknown or "__getattr__" in entry["n"]:
            return UNKNOWN
        return None

    def bases(self, node: Node, depth: int = 0) -> list[Node]:
        """A class's bases: torch classes as nodes, others (outside the index) as UNKNOWN,
        except `object` and the standard classes of EXTERNAL_BASES, which `external_bases`
        answers for."""
        entry = self.modules[node.module].get("cl", {}).get(node.name, {})
        out = []
        for text in entry.get("b", []):
            if text is None or not re.fullmatch(r"[A-Za-z_][\w.]*", text):
                continue  # Generic[T], metaclass=..., calls: add no members
            if text.split(".")[-1] in EXTERNAL_BASES or text == "object":
                continue
            found = self.name_in(node.module, text, depth + 1, scope=node.name)
            if found is not None and found is not UNKNOWN and found.kind == "class":
                out.append(found)
            else:
                out.append(UNKNOWN)
        return out

    def external_bases(self, node: Node) -> set[str]:
        """Members a class gets from the standard bases it names (`Enum`: `value`, `name`)."""
        entry = self.modules[node.module].get("cl", {}).get(node.name, {})
        members: set[str] = set()
        for text in entry.get("b", []):
            if text and re.fullmatch(r"[A-Za-z_][\w.]*", text):
                members |= EXTERNAL_BASES.get(text.split(".")[-1], set())
        return members

    def name_in(self, module: str, text: str, depth: int = 0, scope: str = "") -> Node | None:
        """What the dotted `text` means in `module`'s namespace (a base class, an annotation),
        looking first in the enclosing classes of `scope`."""
        first, *rest = text.split(".")
        node: Node | None = None
        # A base or annotation inside a class body may name a sibling in the enclosing class.
        enclosing = scope.split(".")[:-1] if scope else []
        while enclosing and node is None:
            klass = ".".join(enclosing)
            if first in self.modules[module].get("cl", {}).get(klass, {}).get("n", {}):
                node = self._class_member(module, klass, first, depth)
            enclosing.pop()
        if node is None:
            node = self._module_member(module, first, depth)
        if node is None and first in self.modules:
            node = Node("module", first)
        for part in rest:
            if node is None or node is UNKNOWN:
                return node
            node = self.member(node, part, depth + 1)
        return node

    # Signatures -------------------------------------------------------------------------------

    def _signatures_of(self, node: Node) -> list[dict] | None:
        if node.kind == "function":
            return self.modules[node.module].get("fn", {}).get(node.name)
        if node.kind == "class":
            for method in ("__init__", "__new__"):
                found = self._class_member(node.module, node.name, method, 0)
                if found is not None and found is not UNKNOWN and found.kind == "function":
                    return self.modules[found.module].get("fn", {}).get(found.name)
        return None

    def signatures(self, qualname: str) -> list[list[Param]] | None:
        """Every signature of the callable (several for `@overload`s); None when it is not
        a function or class of the index. A class gives its `__init__` (or `__new__`)."""
        node = self.resolve(qualname)
        if node is None or node is UNKNOWN:
            return None
        found = self._signatures_of(node)
        if found is None:
            return None
        out = []
        for signature in found:
            params = [Param(p[0], KIND_NAMES[p[1]], p[2] if len(p) > 2 else None) for p in signature["p"]]
            if node.kind == "class" or "." in node.name:
                decorators = signature.get("d", [])
                if not ({"staticmethod"} & set(decorators)) and params and params[0].kind != "var-positional":
                    params = params[1:]  # self / cls
            out.append(params)
        # An @overload stub comes with an implementation whose signature is the loosest; keep
        # the overloads alone when there are any, since they say what callers may pass.
        overloads = [params for params, signature in zip(out, found)
                     if {"overload", "typing.overload"} & set(signature.get("d", []))]
        return overloads or out

    def return_class(self, qualname: str) -> Node | None:
        """The class a function's return annotation names, when it names one."""
        node = self.resolve(qualname)
        if node is None or node is UNKNOWN:
            return None
        if node.kind == "class":
            return node
        found = self._signatures_of(node) or []
        scope = node.name if "." in node.name else ""
        for signature in found:
            text = signature.get("r")
            if not text:
                continue
            target = self.name_in(node.module, text, scope=scope)
            if target is not None and target is not UNKNOWN and target.kind == "class":
                return target
        return None


# Module-level helpers -------------------------------------------------------------------------

def resolve(release: str, qualname: str) -> Node | None:
    return load(release).resolve(qualname)


def exists(release: str, qualname: str) -> bool | None:
    """Does `qualname` exist in `release`? None when the index cannot tell."""
    node = load(release).resolve(qualname)
    if node is UNKNOWN:
        return None
    return node is not None


def signature(release: str, qualname: str) -> list[list[Param]] | None:
    """The callable's signatures (a list: several for overloads), parameters in order."""
    return load(release).signatures(qualname)


def keyword_status(release: str, qualname: str, keyword: str) -> str | None:
    """'parameter' when some signature names `keyword` as a keyword-passable parameter,
    'var-keyword' when only a `**kwargs` takes it, 'no' when no signature accepts it, None when
    the callable is not found or the index cannot tell."""
    signatures = signature(release, qualname)
    if signatures is None:
        return None
    status = "no"
    for params in signatures:
        for param in params:
            if param.name == keyword and param.keyword:
                return "parameter"
            if param.kind == "var-keyword":
                status = "var-keyword"
    return status


def accepts_keyword(release: str, qualname: str, keyword: str) -> bool | None:
    """Can `qualname(..., keyword=...)` be called in `release` (a named parameter or **kwargs)?
    None when the callable is not in the index."""
    status = keyword_status(release, qualname, keyword)
    return None if status is None else status != "no"


def keyword_default(release: str, qualname: str, keyword: str) -> str | None:
    """The default of parameter `keyword` as source text (None when absent or without one)."""
    for params in signature(release, qualname) or []:
        for param in params:
            if param.name == keyword:
                return param.default
    return None


def is_config_module(release: str, module: str) -> bool:
    return "cfg" in load(release).modules.get(module, {})


def config_keys(release: str, module: str) -> dict[str, str | None] | None:
    """Every key of a config module, nested classes flattened (`triton.cudagraphs`), with the
    default's source text; None when `module` is not a config module of the release."""
    entry = load(release).modules.get(module)
    if entry is None or "cfg" not in entry:
        return None
    return entry["cfg"]


def config_key(release: str, module: str, key: str) -> bool | None:
    """Is `key` (dotted for nested classes) a config key of `module` in `release`? None when the
    module is not a config module of that release."""
    keys = config_keys(release, module)
    if keys is None:
        return None if load(release).modules.get(module) is None else None
    return key in keys


def first_release(predicate, among: list[str] | None = None) -> str | None:
    """The oldest indexed release for which `predicate(release)` is true."""
    for release in among or releases():
        if predicate(release):
            return release
    return None


def iter_releases(low: str | None = None, below: str | None = None) -> Iterator[str]:
    """Indexed releases in [low, below)."""
    for release in releases():
        if low is not None and release_key(release) < release_key(low):
            continue
        if below is not None and not release_key(release) < release_key(below):
            continue
        yield release
