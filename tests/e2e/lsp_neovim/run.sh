#!/bin/sh
# SPDX-License-Identifier: MIT
# Drives `torchmigrate server` from headless Neovim (a real LSP client) on a scratch copy.
# usage: run.sh TORCHMIGRATE_BIN; exits 77 (reported by ctest as skipped) without nvim.
set -eu
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (Debian package neovim); the Neovim end-to-end test did not run"
  exit 77
fi
bin="$1"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A project that pins torch: without a pin the range is unknown and no fix is safe.
printf 'torch>=2.7,<2.8\n' > "$work/requirements.txt"
TORCHMIGRATE_BIN="$bin" LSP_E2E_DIR="$work" \
  nvim --headless -u NONE -i NONE -n -c "luafile $here/neovim_client.lua"
