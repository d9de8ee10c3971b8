#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One-step set-up on Debian 12: installs what is missing (Debian packages, the npm-pinned
# grammar), builds out of tree, then either runs the demo or the whole test suite.
#   scripts/bootstrap.sh demo   # build the binary only and check examples/legacy-project
#   scripts/bootstrap.sh test   # also the test tools, tests and benchmarks; run every test
#   scripts/bootstrap.sh sanitize  # as test, built with ASan+UBSan in build-sanitize/ (errors fatal)
# `demo` installs only what building and running torchmigrate needs.
# Re-running it is fast and changes nothing that is already in place.
set -euo pipefail

mode="${1:-demo}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TORCHMIGRATE_BUILD_DIR:-$root/build}"
sanitize=""
if [ "$mode" = sanitize ]; then
  # The whole test suite with sanitizers, in its own build directory (cmake/sanitizers.cmake).
  mode="test"
  sanitize=address,undefined
  build="${TORCHMIGRATE_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
fi
cd "$root"

case "$mode" in
  demo | test) ;;
  *)
    echo "usage: scripts/bootstrap.sh demo|test|sanitize" >&2
    exit 2
    ;;
esac

packages=(
  g++ cmake ninja-build pkg-config git
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev
  libtree-sitter-dev libclang-14-dev libdtl-dev libgit2-dev libmd-dev libxxhash-dev libutf8proc-dev
)
if [ "$mode" = test ]; then
  packages+=(
    python3 catch2 neovim patch pre-commit
    libpython3.11-testsuite python3-pip  # the corpus of tests/e2e/test_syntax_agreement.py
    python3-nbformat  # the nbformat 4 schema that tests/e2e/test_notebooks.py validates fixed notebooks with
    zsh fish  # tests/e2e/test_cli_completion.py loads the completion scripts in them
    chromium  # headless browser that tests/e2e/test_html_report.py renders the HTML report in
    python3-yaml  # tests/e2e/test_ci_recipes.py reads action.yml, the GitLab template and the hooks
    shellcheck  # tests/e2e/test_release_script.py lints the release and bootstrap scripts
    mmdebstrap help2man  # tests/e2e/test_package_install.py: a clean Debian root; the packages' man page
    clang-14 libclang-rt-14-dev  # the test fuzz_targets_build: libFuzzer targets with ASan and UBSan (scripts/fuzz.sh)
  )
fi
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages pinned by package-lock.json; install scripts are not needed (we compile the
# grammar's C sources ourselves).
# `demo` needs only the grammar; `test` also the validators and benchmark peers (devDependencies).
npm_omit=""
[ "$mode" = test ] || npm_omit="--omit=dev"
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1) $mode"
installed="$(cat node_modules/.torchmigrate-lock 2>/dev/null || true)"
# A full (test) install also serves the demo.
if [ "$installed" != "$lock_hash" ] && [ "$installed" != "${lock_hash% *} test" ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error $npm_omit
  echo "$lock_hash" > node_modules/.torchmigrate-lock
fi

# Tests and benchmarks are built only for `test`; re-configuring is cheap and keeps one build dir.
with_tests=OFF
[ "$mode" = test ] && with_tests=ON
# The test build is CI's: a warning in torchmigrate's own code fails it (-Werror). Not with
# sanitizers, whose instrumentation makes g++ warn inside <regex>.
werror="$with_tests"
[ -z "$sanitize" ] || werror=OFF
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTORCHMIGRATE_BUILD_TESTS="$with_tests" \
  -DTORCHMIGRATE_BUILD_BENCHMARKS="$with_tests" -DTORCHMIGRATE_WERROR="$werror" \
  -DTORCHMIGRATE_SANITIZE="$sanitize" >/dev/null
cmake --build "$build" --parallel "$(nproc)"

case "$mode" in
  demo)
    "$build/torchmigrate" check examples/legacy-project --output-format full || status=$?
    # Exit code 1 means findings, which is what the demo project is for.
    [ "${status:-0}" -le 1 ]
    ;;
  test)
    [ -z "$sanitize" ] || export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
    ;;
esac
