#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails on an include that crosses the layer graph declared in cmake/layers.txt.

For every file of include/torchmigrate/LAYER/ and src/LAYER/:
  - `#include "torchmigrate/OTHER/..."` (or <...>) must name LAYER itself or a layer LAYER may
    include: in a header, what LAYER lists `public` and, through those, what they list `public`;
    in a source, its `private` layers (and their public ones) as well;
  - a third-party header of a front library (`front PREFIX LAYER`: tree_sitter/, clang-c/) may
    only be included by that front layer, and that library's API (TSNode, ts_*, CXCursor,
    clang_*...) may only be used there, except by the files of API_ALLOW_LIST below.

Usage: check_layers.py [--root SOURCE_DIR]   (default: the repository holding this script)
Exit status 0 when the tree follows the graph, 1 with one line per violation otherwise.
"""

import argparse
import re
import sys
from pathlib import Path

# The API of each front library, as identifiers. Comments and string literals are ignored.
FRONT_API = {
    "tree_sitter": re.compile(r"\b(TS[A-Z][A-Za-z]*|ts_[a-z_]+)\b"),
    "clang-c": re.compile(r"\b(CX[A-Z][A-Za-z_]*|clang_[A-Za-z_]+)\b"),
}

# Files outside a front layer allowed to use its library's API ("path": "prefix"). Empty since
# the engine's tree walks moved into the python layer (python/tree_walk.hpp); it should stay so.
# An entry whose file no longer uses the API is an error too, so a fix removes its line here.
API_ALLOW_LIST = {}

SOURCE_SUFFIXES = {".hpp", ".h", ".cpp", ".cc", ".c", ".inc"}
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">]+)[">]', re.MULTILINE)
# Comments and literals, removed before looking for API identifiers (raw strings are not used
# in a way that would matter here).
NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)
# Top-level headers of include/torchmigrate/ and the layer they belong to.
TOP_LEVEL_HEADERS = {"version.hpp": "core"}


class Graph:
    def __init__(self, path):
        self.order = []  # lowest first
        self.public = {}
        self.private = {}
        self.fronts = {}  # third-party prefix -> layer
        self.errors = []
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            where = f"{path.name}:{number}"
            if words[0] == "layer" and len(words) >= 2:
                self._add_layer(words[1], words[2:], where)
            elif words[0] == "front" and len(words) == 3:
                if words[2] not in self.public:
                    self.errors.append(f"{where}: front {words[1]} names an undeclared layer {words[2]}")
                self.fronts[words[1]] = words[2]
            else:
                self.errors.append(f"{where}: expected `layer NAME [public ...] [private ...]` or `front PREFIX LAYER`")
        self.header_allowed = {}
        self.source_allowed = {}
        for layer in self.order:  # dependencies come first, so their sets are complete
            headers = {layer}
            for dependency in self.public[layer]:
                headers |= self.header_allowed[dependency]
            sources = set(headers)
            for dependency in self.private[layer]:
                sources |= self.header_allowed[dependency]
            self.header_allowed[layer] = headers
            self.source_allowed[layer] = sources

    def _add_layer(self, name, words, where):
        if name in self.public:
            self.errors.append(f"{where}: layer {name} is declared twice")
            return
        public, private, current = [], [], None
        for word in words:
            if word in ("public", "private"):
                current = public if word == "public" else private
            elif current is None:
                self.errors.append(f"{where}: `{word}` must follow `public` or `private`")
            elif word not in self.public:
                # Only layers declared above: the graph cannot have a cycle.
                self.errors.append(f"{where}: {name} depends on {word}, which is not declared above it")
            else:
                current.append(word)
        self.order.append(name)
        self.public[name] = public
        self.private[name] = private


def code_files(folder):
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def included_layer(header):
    """The layer of a `torchmigrate/...` header, or None when the header is not one of ours."""
    parts = header.split("/")
    if parts[0] != "torchmigrate" or len(parts) < 2:
        return None
    if len(parts) == 2:
        return TOP_LEVEL_HEADERS.get(parts[1], "?" + parts[1])
    return parts[1]


def check(root):
    graph = Graph(root / "cmake" / "layers.txt")
    violations = list(graph.errors)
    include_root = root / "include" / "torchmigrate"
    files = []  # (path, layer, is_header)
    for top in sorted(include_root.iterdir()) if include_root.is_dir() else []:
        if top.is_file() and top.suffix in SOURCE_SUFFIXES:
            files.append((top, TOP_LEVEL_HEADERS.get(top.name, "?" + top.name), True))
    for base, is_header in ((include_root, True), (root / "src", False)):
        for folder in sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []:
            if folder.name not in graph.public:
                violations.append(f"{folder.relative_to(root)}: folder of an undeclared layer (add it to cmake/layers.txt)")
                continue
            files += [(path, folder.name, is_header) for path in code_files(folder)]

    used_allowances = set()
    for path, layer, is_header in files:
        relative = path.relative_to(root).as_posix()
        if layer.startswith("?"):
            violations.append(f"{relative}: top-level header that belongs to no layer (see TOP_LEVEL_HEADERS)")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        allowed = graph.header_allowed[layer] if is_header else graph.source_allowed[layer]
        for match in INCLUDE.finditer(text):
            header = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            target = included_layer(header)
            if target is not None:
                if target.startswith("?") or target not in graph.public:
                    violations.append(f"{relative}:{line}: includes {header}, which belongs to no declared layer")
                elif target not in allowed:
                    kind = "header" if is_header else "source"
                    hint = ""
                    if is_header and target in graph.source_allowed[layer]:
                        hint = f" ({target} is a private dependency of {layer}: only src/{layer}/ may include it)"
                    violations.append(f"{relative}:{line}: {layer} {kind} includes {header}; "
                                      f"{layer} may include {', '.join(sorted(allowed))}{hint}")
                continue
            prefix = header.split("/", 1)[0]
            if "/" in header and prefix in graph.fronts and graph.fronts[prefix] != layer:
                violations.append(f"{relative}:{line}: includes {header}; only the {graph.fronts[prefix]} layer "
                                  f"may include {prefix}/ headers")
        code = NOISE.sub(" ", text)
        for prefix, front in graph.fronts.items():
            if front == layer or prefix not in FRONT_API:
                continue
            uses = sorted({m.group(1) for m in FRONT_API[prefix].finditer(code)})
            if API_ALLOW_LIST.get(relative) == prefix:
                used_allowances.add(relative)
                continue
            if uses:
                violations.append(f"{relative}: uses the {prefix} API ({', '.join(uses[:5])}) outside the "
                                  f"{front} layer; add what it needs to {front} instead")
    for relative, prefix in sorted(API_ALLOW_LIST.items()):
        if relative not in used_allowances:
            continue
        text = NOISE.sub(" ", (root / relative).read_text(encoding="utf-8", errors="replace"))
        if not FRONT_API[prefix].search(text):
            violations.append(f"{relative}: no longer uses the {prefix} API: remove it from API_ALLOW_LIST "
                              "in tests/layers/check_layers.py")
    for relative in sorted(set(API_ALLOW_LIST) - used_allowances):
        violations.append(f"{relative}: listed in API_ALLOW_LIST but not a file of another layer; remove the entry")
    return violations, len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    args = parser.parse_args()
    violations, count = check(args.root.resolve())
    for violation in violations:
        print(violation)
    if violations:
        print(f"{len(violations)} layer violation(s); the graph is cmake/layers.txt (docs/architecture.md, Layers)")
        return 1
    print(f"{count} files follow the layer graph of cmake/layers.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
