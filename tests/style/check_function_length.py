#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every C++ function of the project stays under a length limit (80 lines by default).

    python3 tests/style/check_function_length.py [--limit 80] [ROOT]

Reads src/, include/, tools/, benchmarks/ and fuzz/ (tests' TEST_CASE bodies are lists of checks
and are not measured). Comments, string literals and raw strings are blanked before braces are
counted; a function is a brace block at namespace or class level whose head has a parameter list,
and lambdas count towards the function that holds them. A function whose body only returns a
string literal (an embedded stylesheet or script) is data, not logic, and is not measured.
Exits 1 listing each function at or over the limit with its length.
"""
import argparse
import pathlib
import re
import sys


def blank(src):
    """The text with comments, strings and character literals emptied, newlines kept."""
    out = []
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            out.append("\n" * src[i:j + 2].count("\n"))
            i = j + 2
            continue
        raw = re.match(r'R"([^(]*)\(', src[i:i + 40])
        if raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = ")" + raw.group(1) + '"'
            j = src.find(end, i + raw.end())
            out.append('""' + "\n" * src[i:j + len(end)].count("\n"))
            i = j + len(end)
            continue
        if c == '"' or (c == "'" and not (i > 0 and src[i - 1].isalnum())):
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\\":
                    j += 1
                j += 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def long_functions(path, limit):
    text = blank(path.read_text(encoding="utf-8"))
    stack = []  # (kind, first line, head, offset of the body)
    last = 0
    line = 1
    found = []
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[last:i].strip()
            kind = "block"
            if not any(k == "function" for k, _, _, _ in stack):
                if re.match(r"^(template\s*<.*>\s*)?(namespace|struct|class|enum|union|extern)\b", head, re.S):
                    kind = "scope"
                elif ")" in head and not re.search(r"=\s*$", head):
                    kind = "function"
            stack.append((kind, line, head, i + 1))
            last = i + 1
        elif c == "}":
            if stack:
                kind, first, head, body = stack.pop()
                length = line - first + 1
                data_only = re.fullmatch(r'\s*return\s*""\s*;\s*', text[body:i]) is not None
                if kind == "function" and length >= limit and not data_only:
                    found.append((length, first, " ".join(head.split())[-90:]))
            last = i + 1
        elif c == ";":
            last = i + 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parents[2], type=pathlib.Path)
    parser.add_argument("--limit", type=int, default=80)
    args = parser.parse_args()
    failures = []
    files = 0
    for folder in ("src", "include", "tools", "benchmarks", "fuzz"):
        for path in sorted((args.root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp") or not path.is_file():
                continue
            files += 1
            for length, first, head in long_functions(path, args.limit):
                failures.append(f"{path.relative_to(args.root)}:{first}: {length} lines: {head}")
    for failure in failures:
        print(failure)
    print(f"{files} files, {len(failures)} functions of {args.limit} lines or more")
    return 1 if failures or files == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
