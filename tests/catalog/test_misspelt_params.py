#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plants a misspelt `check.params` key in one rule per check family and expects the catalog's
checkers to reject it: the schema validator (validate_catalog.mjs) always, and the C++ catalog
loader when --catalog-check names its binary.

For each family the catalog uses, its first rule (lowest code) is changed in a copy of the rules
directory, one plant per copy:
  - a family with params: its first key renamed (`renames` -> `renamesx`), the same misspelling
    added next to the key it copies (only an unknown-key check can reject that), and both again
    for the first object nested in the params (`renames[0].from`), when there is one;
  - a family without params: `"params": {"unknown_key": 1}`.
The unchanged copy must pass first, so that a rejection is the plant's doing.

  node VALIDATOR DIR     must exit non-zero, naming only the planted rule's file (`N passed, 1 failed`).
  BINARY DIR             (--catalog-check) the catalog loader: loads every rule of DIR and builds its
                         check; exits 0 when all load, else 1 with one `TMxxx: ...` line per problem
                         on stderr. Must exit non-zero with the planted rule's code on stderr.

Prints one line per plant (family, rule, planted key, verdict); exits 1 when the unchanged
catalog fails or any plant is accepted. Stdlib only.
"""
from __future__ import annotations

import argparse
import copy
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

TIMEOUT_S = 120
RULE_FILE = re.compile(r"^TM\d{3}\.json$")
SUMMARY = re.compile(r"(\d+) passed, (\d+) failed")


@dataclass
class Plant:
    family: str
    code: str
    key: str  # where the misspelling went, e.g. check.params.renames[0].fromx
    change: Callable[[dict[str, Any]], None]  # edits the rule's JSON in place


def load_rules(rules_dir: Path) -> dict[str, dict[str, Any]]:
    rules = {}
    for path in sorted(rules_dir.iterdir()):
        if RULE_FILE.match(path.name):
            rules[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return rules


def misspelt(key: str) -> str:
    return key + "x"


def renamed_first_key(obj: dict[str, Any]) -> str:
    """Renames the first key of `obj` in place, keeping its position; returns the new name."""
    first = next(iter(obj))
    items = [(misspelt(first) if k == first else k, v) for k, v in obj.items()]
    obj.clear()
    obj.update(items)
    return misspelt(first)


def added_misspelling(obj: dict[str, Any]) -> str:
    """Adds a misspelt copy of the first key of `obj`, keeping the original; returns its name."""
    first = next(iter(obj))
    obj[misspelt(first)] = copy.deepcopy(obj[first])
    return misspelt(first)


def first_nested_object(params: dict[str, Any]) -> tuple[list[str | int], str] | None:
    """The path (keys and indexes) and display path of the first non-empty object inside
    `params`, depth first in key order, looking at each array's first element."""

    def walk(value: Any, path: list[str | int]) -> list[str | int] | None:
        if isinstance(value, dict):
            if path and value:
                return path
            for key, item in value.items():
                found = walk(item, path + [key])
                if found is not None:
                    return found
        elif isinstance(value, list) and value:
            return walk(value[0], path + [0])
        return None

    path = walk(params, [])
    if path is None:
        return None
    shown = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return path, shown


def at(obj: Any, path: list[str | int]) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def plants_for(family: str, code: str, rule: dict[str, Any]) -> list[Plant]:
    params = rule["check"].get("params")
    if not params:

        def add_unknown(r: dict[str, Any]) -> None:
            r["check"]["params"] = {"unknown_key": 1}

        return [Plant(family, code, "check.params.unknown_key", add_unknown)]

    first = next(iter(params))
    plants = [
        Plant(family, code, f"check.params.{misspelt(first)} (renamed)",
              lambda r: renamed_first_key(r["check"]["params"])),
        Plant(family, code, f"check.params.{misspelt(first)} (added)",
              lambda r: added_misspelling(r["check"]["params"])),
    ]
    nested = first_nested_object(params)
    if nested is not None:
        path, shown = nested
        inner = next(iter(at(params, path)))
        plants += [
            Plant(family, code, f"check.params{shown}.{misspelt(inner)} (renamed)",
                  lambda r: renamed_first_key(at(r["check"]["params"], path))),
            Plant(family, code, f"check.params{shown}.{misspelt(inner)} (added)",
                  lambda r: added_misspelling(at(r["check"]["params"], path))),
        ]
    return plants


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)


class Checker:
    def __init__(self, node: str, validator: Path, catalog_check: Path | None):
        self.node = node
        self.validator = validator
        self.catalog_check = catalog_check

    def validate(self, rules_dir: Path) -> tuple[int, str, tuple[int, int] | None]:
        result = run([self.node, str(self.validator), str(rules_dir)])
        summary = SUMMARY.search(result.stdout)
        counts = (int(summary.group(1)), int(summary.group(2))) if summary else None
        return result.returncode, result.stderr, counts

    def load(self, rules_dir: Path) -> tuple[int, str]:
        assert self.catalog_check is not None
        result = run([str(self.catalog_check), str(rules_dir)])
        return result.returncode, result.stderr


def copy_rules(source: Path, into: Path) -> Path:
    target = into / "rules"
    shutil.copytree(source, target)
    return target


def check_unchanged(checker: Checker, rules_dir: Path, count: int) -> list[str]:
    """Problems with the unchanged catalog (an empty list when both checkers accept it)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="misspelt_params_") as temp:
        copied = copy_rules(rules_dir, Path(temp))
        code, stderr, counts = checker.validate(copied)
        if code != 0 or counts != (count, 0):
            problems.append(f"validator rejects the unchanged catalog (exit {code}, {counts}):\n{stderr}")
        if checker.catalog_check is not None:
            code, stderr = checker.load(copied)
            if code != 0:
                problems.append(f"catalog check rejects the unchanged catalog (exit {code}):\n{stderr}")
    return problems


def check_schema_covers(rules_dir: Path, families: set[str]) -> list[str]:
    schema = json.loads((rules_dir / "schema.json").read_text(encoding="utf-8"))
    described = set(schema.get("$defs", {}).get("families", {}))
    return [f"schema.json has no $defs/families/{family}" for family in sorted(families - described)]


def verdicts(checker: Checker, rules_dir: Path, plant: Plant, count: int) -> list[tuple[str, bool, str]]:
    """(checker, rejected as expected, detail) for one plant."""
    out = []
    with tempfile.TemporaryDirectory(prefix="misspelt_params_") as temp:
        copied = copy_rules(rules_dir, Path(temp))
        path = copied / f"{plant.code}.json"
        rule = json.loads(path.read_text(encoding="utf-8"))
        plant.change(rule)
        path.write_text(json.dumps(rule, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        code, stderr, counts = checker.validate(copied)
        named = f"{plant.code}.json:" in stderr
        rejected = code != 0 and named and counts == (count - 1, 1)
        detail = "" if rejected else f"exit {code}, counts {counts}, rule named: {named}"
        out.append(("schema", rejected, detail))

        if checker.catalog_check is not None:
            code, stderr = checker.load(copied)
            named = any(line.startswith(f"{plant.code}:") or f"{plant.code}:" in line for line in stderr.splitlines())
            rejected = code != 0 and named
            detail = "" if rejected else f"exit {code}, rule named: {named}"
            out.append(("loader", rejected, detail))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, required=True, help="the rules directory (TM*.json and schema.json)")
    parser.add_argument("--validator", type=Path, required=True, help="tests/catalog/validate_catalog.mjs")
    parser.add_argument("--catalog-check", type=Path, help="the C++ catalog loader binary (optional)")
    parser.add_argument("--node", default=shutil.which("node") or "node", help="the node executable")
    args = parser.parse_args()

    rules_dir = args.rules.resolve()
    rules = load_rules(rules_dir)
    if not rules:
        print(f"no TM*.json rules in {rules_dir}", file=sys.stderr)
        return 1
    catalog_check = args.catalog_check.resolve() if args.catalog_check else None
    checker = Checker(args.node, args.validator.resolve(), catalog_check)

    first_of: dict[str, str] = {}
    for code, rule in rules.items():  # sorted by code
        first_of.setdefault(rule["check"]["family"], code)

    problems = check_schema_covers(rules_dir, set(first_of)) + check_unchanged(checker, rules_dir, len(rules))
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}", file=sys.stderr)
        return 1
    checked = "schema" + (" and loader" if catalog_check else "")
    print(f"unchanged catalog: {len(rules)} rules, {len(first_of)} families, accepted by {checked}")

    accepted = 0
    plants = [p for family in sorted(first_of) for p in plants_for(family, first_of[family], rules[first_of[family]])]
    width = max(len(p.family) for p in plants)
    for plant in plants:
        results = verdicts(checker, rules_dir, plant, len(rules))
        ok = all(rejected for _, rejected, _ in results)
        accepted += not ok
        shown = ", ".join(f"{name} {'rejects' if rejected else 'ACCEPTS'}" + (f" ({detail})" if detail else "")
                          for name, rejected, detail in results)
        print(f"{plant.family:<{width}}  {plant.code}  {plant.key:<48}  {'ok' if ok else 'FAIL'}: {shown}")

    print(f"{len(plants)} planted errors in {len(first_of)} families: "
          f"{len(plants) - accepted} rejected, {accepted} accepted")
    return 1 if accepted else 0


if __name__ == "__main__":
    sys.exit(main())
