#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the lost-name tables of a `moved-modules` rule from the API index (api-index/).

    scripts/lost_names.py rules/TM111.json           # rewrite the rule's `namespaces` tables
    scripts/lost_names.py rules/TM111.json --check   # exit 1 when they differ from the index

Each entry of the rule's `check.params.namespaces` names a module (`torch.onnx.symbolic_opset9`).
Its tables are computed from the releases of the rule (`release.from` -> `release.to`):

- `lost`: the names the module has in `from` that `module.name` no longer resolves to in `to`,
  following re-exports and star imports the way Python does (a star import takes its module's
  `__all__`, underscore names included). These fail with ImportError or AttributeError.
- `parent_binds`: when the package binds the module's last name to another module in `to`
  (`torch.onnx.symbolic_opset9` is the internal module until something imports the submodule),
  that module and the lost names it lacks too (`lost`): only those fail for sure through it.
- `imported_by_parent: false`: the package imported the submodule in `from` and no longer does,
  so `package.module` needs an import of the submodule first.

The hand-written `to` (the module that has the lost names now), `fallback` and `advice` are kept, and so is an entry marked
`hand_written` (names the old module served through its `__getattr__`, which the index cannot see). Every later indexed
release is compared too; a name lost only there is printed as a warning.
Stdlib only; the rest of the rule file is left as it is.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "api-index"))
import torch_api  # noqa: E402


def absent(release: str, qualified: str) -> bool:
    return torch_api.load(release).resolve(qualified) is None


def table(module: str, before: str, after: str) -> dict:
    entry = {"module": module}
    names = sorted(torch_api.load(before).modules.get(module, {}).get("n", {}))
    entry["lost"] = [name for name in names if absent(after, f"{module}.{name}")]
    package, _, last = module.rpartition(".")
    bound_before = torch_api.load(before).modules.get(package, {}).get("n", {}).get(last)
    bound_after = torch_api.load(after).modules.get(package, {}).get("n", {}).get(last)
    if bound_after and bound_after.startswith("=") and bound_after[1:] != module:
        other = bound_after[1:]
        entry["parent_binds"] = {"module": other,
                                 "lost": [name for name in entry["lost"] if absent(after, f"{other}.{name}")]}
    elif bound_before and not bound_after:
        entry["imported_by_parent"] = False
    return entry


def later_losses(entry: dict, before: str, after: str) -> list[str]:
    """Warnings for names a release after `after` loses that `after` still had."""
    notes = []
    names = sorted(torch_api.load(before).modules.get(entry["module"], {}).get("n", {}))
    for release in torch_api.iter_releases(low=after):
        if release == after:
            continue
        more = [name for name in names
                if name not in entry["lost"] and absent(release, f"{entry['module']}.{name}")]
        if more:
            notes.append(f"{entry['module']}: torch {release} also lacks {', '.join(more)}")
    return notes


def render(entries: list[dict], indent: str) -> str:
    lines = ["["]
    for i, entry in enumerate(entries):
        comma = "," if i + 1 < len(entries) else ""
        lines.append(f"{indent}  {json.dumps(entry)}{comma}")
    lines.append(f"{indent}]")
    return "\n".join(lines)


def replace_tables(text: str, rendered: str) -> str:
    match = re.search(r'"namespaces":\s*\[', text)
    if match is None:
        raise SystemExit("the rule has no `namespaces` parameter")
    depth, end = 0, match.end() - 1
    for end in range(match.end() - 1, len(text)):
        depth += {"[": 1, "]": -1}.get(text[end], 0)
        if depth == 0:
            break
    return text[: match.end() - 1] + rendered + text[end + 1:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rule", type=Path)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    args = parser.parse_args()
    text = args.rule.read_text()
    rule = json.loads(text)
    before, after = rule["release"]["from"], rule["release"]["to"]
    entries = []
    for entry in rule["check"]["params"]["namespaces"]:
        if entry.get("hand_written"):  # served by the old module's `__getattr__`: not in the index
            entries.append(entry)
            continue
        computed = table(entry["module"], before, after)
        for key in ("to", "fallback", "advice"):  # written by hand: where the lost names live now
            if key in entry:
                computed[key] = entry[key]
        entries.append(computed)
    for entry in entries:
        for note in later_losses(entry, before, after):
            print(f"warning: {note}", file=sys.stderr)
    line = text[: text.index('"namespaces"')].rsplit("\n", 1)[-1]
    updated = replace_tables(text, render(entries, " " * (len(line) - len(line.lstrip()))))
    if args.check:
        if json.loads(updated) != rule:
            print(f"{args.rule}: the `namespaces` tables differ from the API index; run {Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    args.rule.write_text(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
