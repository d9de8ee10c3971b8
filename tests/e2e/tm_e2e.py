# SPDX-License-Identifier: MIT
"""Helpers for end-to-end tests: run the built torchmigrate binary like a user would."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

BINARY = os.environ.get("TORCHMIGRATE_BIN", "torchmigrate")
SOURCE_DIR = Path(os.environ.get("TORCHMIGRATE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLE = SOURCE_DIR / "examples" / "legacy-project"


def run(*args, cwd=None, check_exit=None, input=None, env=None):
    """Runs torchmigrate with `args` (and `input` on stdin); returns the CompletedProcess (text mode)."""
    result = subprocess.run([BINARY, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120,
                            input=input if input is not None else "", env=env)
    if check_exit is not None and result.returncode != check_exit:
        raise AssertionError(
            f"exit {result.returncode} != {check_exit} for {args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


def cache_checksum(body):
    """The checksum a cache file's header line carries for `body`: XXH3-128 in lowercase hex
    (engine/run/content_hash.cpp), computed by the xxHash library that the build's libxxhash-dev
    brings, so that any Python runs the tests."""
    import ctypes

    class Hash128(ctypes.Structure):
        _fields_ = [("low64", ctypes.c_uint64), ("high64", ctypes.c_uint64)]

    library = ctypes.CDLL("libxxhash.so.0")
    library.XXH3_128bits.restype = Hash128
    library.XXH3_128bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    digest = library.XXH3_128bits(body, len(body))
    return b"%016x%016x" % (digest.high64, digest.low64)


def cache_keys(directory):
    """The keys of the entries in a cache directory's file, sorted (src/engine/run/result_cache.cpp:
    a header line, then the tool version, the catalog hash and the entries, each a key, a settings
    hash, a day, the checked file's stamp (a flag byte, then five 64-bit numbers when set) and the
    findings; integers little-endian, strings prefixed by their length)."""
    path = Path(directory) / "results.bin"
    if not path.exists():
        return []
    body = path.read_bytes().split(b"\n", 1)[1]
    at = 0

    def u32():
        nonlocal at
        at += 4
        return int.from_bytes(body[at - 4:at], "little")

    def string():
        nonlocal at
        size = u32()
        at += size
        return body[at - size:at]

    string(), string()
    keys = []
    for _ in range(u32()):
        keys.append(string().decode())
        string(), u32()
        at += 1 + (40 if body[at] else 0)
        string()
    return sorted(keys)


class TempTree:
    """A temporary directory, optionally holding a copy of a source tree."""

    def __init__(self, source=None):
        self.root = Path(tempfile.mkdtemp(prefix="torchmigrate-e2e-"))
        if source is not None:
            shutil.copytree(source, self.root / "project")

    @property
    def project(self):
        return self.root / "project"

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def copy_tree(root, count, per_directory=100):
    """Fills `root` with `count` source files copied round-robin from the example project (its
    Python and C++ sources), `per_directory` to a directory, plus its requirements.txt: a large
    tree with the example's findings spread over it."""
    sources = sorted(p for p in EXAMPLE.rglob("*") if p.suffix in (".py", ".cpp") and p.is_file())
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLE / "requirements.txt", root / "requirements.txt")
    for i in range(count):
        source = sources[i % len(sources)]
        directory = root / f"pkg{i // per_directory:03d}"
        directory.mkdir(exist_ok=True)
        shutil.copy(source, directory / f"{source.stem}_{i}{source.suffix}")
    return count
