#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan, seeds their corpora from the
# fixtures and runs each target in turn:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     # default: 60 s, every target
#   scripts/fuzz.sh 0 [TARGET...]                         # replay only: seeds and regressions, no mutation
# Each target reads its corpus and its regressions (tests/fuzz-regressions/<target>/, read only),
# with the libFuzzer options of fuzz/<target>.options and the dictionary fuzz/dictionaries/<target>.dict.
# Needs clang-14 and libclang-rt-14-dev (Debian); CC/CXX choose other clang versions.
# The build, the corpora (kept and grown between runs) and crash inputs live in
# $TORCHMIGRATE_FUZZ_BUILD_DIR (default build-fuzz/): corpus/<target>/, crashes/<target>/,
# logs/<target>.log. TORCHMIGRATE_FUZZ_BUILD_TYPE (default RelWithDebInfo, -O2) sets the build
# type; the test suite's build check (fuzz/CMakeLists.txt) uses Debug, which compiles about twice
# as fast. TORCHMIGRATE_FUZZ_SKIP_BUILD=1 runs the targets as last built. Prints executions and
# coverage per target; exits 1 when a target crashed (the input is in crashes/<target>/: fix the
# bug, then add the input to tests/fuzz-regressions/<target>/ so the test suite replays it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TORCHMIGRATE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi

all_targets=(python_lint_fix cxx_source_scan buildfile_requirements buildfile_cmake buildfile_assignments
             buildfile_shell_words buildfile_pep440 buildfile_checks config result_cache notebook lsp)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [ -f "$root/fuzz/$target.cpp" ] || { echo "unknown fuzz target: $target (fuzz/*.cpp)" >&2; exit 2; }
done

if [ "${TORCHMIGRATE_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${TORCHMIGRATE_FUZZ_BUILD_TYPE:-RelWithDebInfo}" \
    -DCMAKE_C_COMPILER="${CC:-clang-14}" -DCMAKE_CXX_COMPILER="${CXX:-clang++-14}" \
    -DTORCHMIGRATE_BUILD_FUZZERS=ON -DTORCHMIGRATE_BUILD_TESTS=OFF -DTORCHMIGRATE_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"
fi

python3 "$root/scripts/fuzz_seeds.py" "$build/corpus" >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$build/logs"
failed=()
total=0
printf '%-24s %14s %8s %8s %8s  %s\n' target executions exec/s cov ft result
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  crashes="$build/crashes/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$crashes"
  options=(-print_final_stats=1 -timeout=30 -rss_limit_mb=4096 -artifact_prefix="$crashes/")
  # -runs=0: every input of the corpora once, then stop.
  if [ "$seconds" -eq 0 ]; then options+=(-runs=0); else options+=(-max_total_time="$seconds"); fi
  [ -f "$root/fuzz/dictionaries/$target.dict" ] && options+=(-dict="$root/fuzz/dictionaries/$target.dict")
  # `key = value` lines of the [libfuzzer] section, as ClusterFuzzLite reads them.
  if [ -f "$root/fuzz/$target.options" ]; then
    while read -r option; do options+=("-$option"); done < <(awk -F' *= *' \
      '/^\[/ { section = $0; next } section == "[libfuzzer]" && NF == 2 { print $1 "=" $2 }' "$root/fuzz/$target.options")
  fi
  corpora=("$corpus")
  # Read, never written: libFuzzer adds new inputs to the first directory only.
  [ -d "$root/tests/fuzz-regressions/$target" ] && corpora+=("$root/tests/fuzz-regressions/$target")
  status=0
  "$build/fuzz/fuzz_$target" "${options[@]}" "${corpora[@]}" >"$log" 2>&1 || status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  coverage="$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)"
  cov="$(echo "$coverage" | awk '{print $2}')"
  ft="$(echo "$coverage" | awk '{print $4}')"
  result=ok
  if [ "$status" -ne 0 ]; then
    result="CRASH (exit $status): $(ls "$crashes" | head -3 | tr '\n' ' ')see $log"
    failed+=("$target")
  fi
  total=$((total + ${runs:-0}))
  printf '%-24s %14s %8s %8s %8s  %s\n' "$target" "${runs:--}" "${speed:--}" "${cov:--}" "${ft:--}" "$result"
done
echo "total executions: $total"
if [ ${#failed[@]} -gt 0 ]; then
  echo "crashed: ${failed[*]} (inputs in $build/crashes/)" >&2
  exit 1
fi
