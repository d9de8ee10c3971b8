#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of each fuzz target (fuzz/*.cpp) from the repository's fixtures and
examples, in the input layout each target reads:  scripts/fuzz_seeds.py OUT_DIR

Seeds are derived, never committed: OUT_DIR/<target>/seed-* is rewritten on every call."""
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "tests" / "fixtures", ROOT / "examples"]
MAX_SEED = 64 * 1024

# Index of each format's name in fuzz/buildfile_checks.hpp (kBuildFileNames).
BUILD_NAMES = ["Dockerfile", "build.sh", "ci.yml", "environment.yml", "CMakeLists.txt", "Makefile", "pyproject.toml",
               "setup.cfg", "requirements.txt", "setup.py", ".env", "build.bat", "Singularity", "constraints.txt",
               "tool.cmake"]
CXX_NAMES = [".cpp", ".cu", ".h", ".c"]  # fuzz/cxx_source_scan.cpp
CONFIG_NAMES = ["torchmigrate.toml", ".torchmigrate.toml", "pyproject.toml"]  # fuzz/config.cpp


def fixture_files():
    for source in SOURCES:
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.stat().st_size <= MAX_SEED:
                yield path


def base_name(path):
    """The fixture's name without the .fixed / .unsafe.fixed suffix of expected outputs."""
    name = path.name
    for suffix in (".unsafe.fixed", ".fixed"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def build_kind(name):
    lower = name.lower()
    if lower.startswith("dockerfile") or lower.endswith(".dockerfile"):
        return 0
    if lower.endswith((".sh", ".bash")):
        return 1
    if lower.startswith("environment") and lower.endswith((".yml", ".yaml")):
        return 3
    if lower.endswith((".yml", ".yaml")):
        return 2
    if name == "CMakeLists.txt":
        return 4
    if lower.endswith(".cmake"):
        return 14
    if name in ("Makefile", "GNUmakefile") or lower.endswith(".mk"):
        return 5
    if lower.endswith(".toml"):
        return 6
    if lower.endswith((".cfg", ".ini")):
        return 7
    if lower.startswith("requirements") and lower.endswith(".txt"):
        return 8
    if lower.startswith("constraints") and lower.endswith(".txt"):
        return 13
    if name == "setup.py":
        return 9
    if lower == ".env" or lower.endswith(".env"):
        return 10
    if lower.endswith((".bat", ".cmd")):
        return 11
    if lower.startswith(("singularity", "apptainer")) or lower.endswith(".def"):
        return 12
    return None


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_transcript(text):
    uri = "file:///fuzz.py"
    lines = text.splitlines() or [""]
    last = len(lines) - 1
    return b"".join([
        frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                   {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "text": "import torch\n"},
                   {"range": {"start": {"line": last, "character": 0}, "end": {"line": last, "character": 3}},
                    "text": "x = \u00e9\U0001F600"}]}}),
        frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 4}}}),
        frame({"jsonrpc": "2.0", "id": "a", "method": "textDocument/codeAction",
               "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                                  "end": {"line": 2, "character": 1}},
                          "context": {"diagnostics": []}}}),
        frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
        frame({"jsonrpc": "2.0", "method": "exit"}),
    ])


def cache_findings(findings):
    """Findings as the cache file encodes them: little-endian u32 counts and offsets, u8 enums,
    strings as a u32 length and the bytes (src/engine/run/result_cache.cpp)."""
    def u32(value):
        return value.to_bytes(4, "little")

    def string(value):
        data = value.encode()
        return u32(len(data)) + data

    out = u32(len(findings))
    for code, start, end in findings:
        out += string(code) + string("`torch.x` changed") + u32(start) + u32(end) + bytes([1]) + u32(1)
        out += string("Replace") + u32(1) + u32(start) + u32(end) + string("torch") + bytes([0])
        out += string("2.8") + u32(1) + string("torch") + bytes([1])
    return out


def cache_entries(text):
    """One entry's encoded findings as fuzz/result_cache.cpp wraps them (mode 1)."""
    codes = sorted(path.stem for path in (ROOT / "rules").glob("TM*.json"))[:4] or ["TM901"]
    size = len(text.encode())
    return [cache_findings([])] + [cache_findings([(code, 0, min(size, 5))]) for code in codes]


def main():
    out = Path(sys.argv[1])
    seeds = {}

    def add(target, data):
        seeds.setdefault(target, {})[hashlib.sha1(data).hexdigest()[:16]] = data

    python_texts = []
    for path in fixture_files():
        data = path.read_bytes()
        name = base_name(path)
        if name.endswith(".py"):
            add("python_lint_fix", data)
            python_texts.append(data.decode("utf-8", "replace"))
        if name.endswith(".ipynb"):
            add("notebook", data)
        for index, ending in enumerate(CXX_NAMES):
            if name.endswith(ending) or (ending == ".cpp" and name.endswith((".cc", ".hpp", ".cxx"))) or \
                    (ending == ".cu" and name.endswith((".cuh", ".cuda"))):
                add("cxx_source_scan", bytes([index]) + data)
                break
        if name in CONFIG_NAMES:
            add("config", bytes([CONFIG_NAMES.index(name)]) + data)
        kind = build_kind(name)
        if kind is not None:
            for target in ("buildfile_requirements", "buildfile_assignments", "buildfile_checks"):
                add(target, bytes([kind]) + data)
            if kind in (4, 14):
                add("buildfile_cmake", data)
            if kind in (0, 1, 5, 11, 12):
                for line in data.splitlines():
                    if line.strip():
                        add("buildfile_shell_words", line)
            for match in re.finditer(rb"torch[a-z]*\s*([<>=!~][^;\s\"',\]]*)", data):
                add("buildfile_pep440", match.group(1) + b"\n2.7.1")
    for spec in (b">=2.7,<2.9\n2.8.0", b"~=2.7.0\n2.7.post1", b"==2.*\n1!2.8.0rc1.dev3+local", b"!=2.7.*,>=2\nv2.8"):
        add("buildfile_pep440", spec)
    for text in python_texts[:40]:
        add("lsp", lsp_transcript(text))
        for entry in cache_entries(text):
            add("result_cache", b"\x01" + text.encode() + b"\0" + entry)
        add("result_cache", b"\x00" + text.encode() + b"\0" + b"torchmigrate-cache 4 0000\n")

    for target, files in sorted(seeds.items()):
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob("seed-*"):
            old.unlink()
        for digest, data in files.items():
            (directory / ("seed-" + digest)).write_bytes(data)
        print(f"{target}: {len(files)} seeds")


if __name__ == "__main__":
    main()
