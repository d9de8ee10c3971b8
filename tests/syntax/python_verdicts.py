# SPDX-License-Identifier: MIT
"""Python's own verdict for the syntax agreement test: for each path on standard input, one
tab-separated line "path<TAB>ok" or "path<TAB>error<TAB>LINE:COLUMN<TAB>message".

The bytes go to ast.parse unchanged, so Python applies its own rules for encoding declarations,
byte order marks and line endings (CR, LF, CRLF alike)."""
import ast
import sys
import warnings


def verdict(path):
    with open(path, "rb") as handle:
        source = handle.read()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like are warnings
            ast.parse(source, path)
    except SyntaxError as error:  # includes IndentationError and TabError
        return f"error\t{error.lineno}:{error.offset}\t{error.msg}"
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, too deep nesting
        return f"error\t1:1\t{type(error).__name__}: {error}"
    return "ok"


def main():
    for line in sys.stdin:
        path = line.rstrip("\n")
        if path:
            print(f"{path}\t{verdict(path)}")


if __name__ == "__main__":
    main()
