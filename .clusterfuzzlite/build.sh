#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite build (runs in the image of .clusterfuzzlite/Dockerfile): every fuzz target in
# fuzz/ with the compiler, sanitizer flags and libFuzzer the image chooses ($CC, $CXX, $CFLAGS,
# $CXXFLAGS, $LIB_FUZZING_ENGINE), into $OUT as <target> with <target>.dict, <target>.options and
# <target>_seed_corpus.zip (the fixture-derived seeds plus tests/fuzz-regressions/<target>/).

# The grammar from the image when the checkout has no node_modules/ (npm is not used here).
if [ ! -f node_modules/tree-sitter-python/src/parser.c ]; then
  mkdir -p node_modules
  cp -r "$SRC/tree-sitter-python" node_modules/
fi

# TORCHMIGRATE_FUZZ_SANITIZERS empty: the sanitizer and coverage flags are the image's, from
# CFLAGS/CXXFLAGS; build type None keeps its optimisation level. libclang 12 is the image's.
cmake -S . -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DTORCHMIGRATE_BUILD_FUZZERS=ON -DTORCHMIGRATE_FUZZ_SANITIZERS= \
  -DTORCHMIGRATE_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DTORCHMIGRATE_BUILD_TESTS=OFF -DTORCHMIGRATE_BUILD_BENCHMARKS=OFF -DLLVM_ROOT=/usr/lib/llvm-12
# One target per fuzz/<target>.cpp, as scripts/fuzz.sh has them; replay_main.cpp is the replay's main.
targets=()
for source in fuzz/*.cpp; do
  name=$(basename "$source" .cpp)
  [ "$name" = replay_main ] || targets+=("$name")
done
cmake --build "$WORK/build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

python3 scripts/fuzz_seeds.py "$WORK/seeds" >/dev/null
for target in "${targets[@]}"; do
  cp "$WORK/build/fuzz/fuzz_$target" "$OUT/$target"
  [ ! -f "fuzz/dictionaries/$target.dict" ] || cp "fuzz/dictionaries/$target.dict" "$OUT/$target.dict"
  [ ! -f "fuzz/$target.options" ] || cp "fuzz/$target.options" "$OUT/$target.options"
  [ ! -d "tests/fuzz-regressions/$target" ] || cp tests/fuzz-regressions/"$target"/* "$WORK/seeds/$target/"
  (cd "$WORK/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done

# The fuzzers run in another image (base-runner), without libclang: cxx_source_scan loads it by
# its SONAME, found through an RPATH of $ORIGIN/lib (DT_RPATH, which also serves libclang's own
# dependencies), where libclang and the libraries it needs beyond the C library are copied.
libclang=$(readlink -f "$(find /usr/lib/llvm-12/lib -name 'libclang.so' | head -1)")
mkdir -p "$OUT/lib"
cp "$libclang" "$OUT/lib/$(objdump -p "$libclang" | awk '/SONAME/ { print $2 }')"
ldd "$libclang" | awk '$3 ~ /^\// { print $3 }' | grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
  while read -r library; do cp -L "$library" "$OUT/lib/"; done
# shellcheck disable=SC2016  # $ORIGIN is for the dynamic loader
patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$OUT/cxx_source_scan"
