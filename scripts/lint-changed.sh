#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lints what a change touched, as CI does on every pull request:
#   scripts/lint-changed.sh [BASE]    # default BASE: the merge base with origin/main, else HEAD~1
# - clang-format (.clang-format) on the changed lines only (`git clang-format`), so the house
#   style applies to new code without a history-wide reformat;
# - clang-tidy (.clang-tidy) on the changed .cpp files, with the build's compile_commands.json
#   ($TORCHMIGRATE_BUILD_DIR, default build/; configured and built here when missing).
# Needs clang-format-14 and clang-tidy-14 (Debian). Exits 1 when either has something to say.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TORCHMIGRATE_BUILD_DIR:-$root/build}"
cd "$root"

base="${1:-}"
if [ -z "$base" ]; then
  base="$(git merge-base HEAD origin/main 2>/dev/null || git rev-parse HEAD~1)"
fi

mapfile -t changed < <(git diff --name-only --diff-filter=ACMR "$base" -- 'src/*.cpp' 'include/*.hpp' \
                         'tests/*.cpp' 'tests/*.hpp' 'fuzz/*.cpp' 'benchmarks/*.cpp')
if [ ${#changed[@]} -eq 0 ]; then
  echo "lint-changed: no C++ file changed since $(git rev-parse --short "$base")"
  exit 0
fi

status=0
format_diff="$(git clang-format-14 --quiet --diff --extensions cpp,hpp "$base" -- "${changed[@]}" || true)"
if [ -n "$format_diff" ] && [ "$format_diff" != "no modified files to format" ]; then
  echo "lint-changed: changed lines are not clang-formatted (fix: git clang-format-14 $base):"
  echo "$format_diff"
  status=1
fi

if [ ! -f "$build/compile_commands.json" ]; then
  # clang-tidy also needs the generated sources (version, embedded catalog).
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  cmake --build "$build" --parallel "$(nproc)" >/dev/null
fi
sources=()
for file in "${changed[@]}"; do
  [[ "$file" == src/*.cpp ]] && sources+=("$file")
done
if [ ${#sources[@]} -gt 0 ]; then
  # stderr only counts the warnings it suppressed (system headers, disabled checks).
  clang-tidy-14 -p "$build" --quiet "${sources[@]}" 2>/dev/null || status=1
fi
exit "$status"
