#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerates docs/report.png: the migration report of the example project, rendered by headless
# chromium (Debian package `chromium`) with networking disabled.
#
#   scripts/report-screenshot.sh [path/to/torchmigrate]   (default: build/torchmigrate)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-"$root/build/torchmigrate"}
command -v chromium >/dev/null 2>&1 || { echo "needs chromium (apt-get install chromium)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# From the repository root, so the paths in the report read examples/legacy-project/...
cd "$root"
"$binary" report examples/legacy-project --no-cache -o "$work/report.html"
chromium --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 \
  --window-size=1280,1600 --screenshot="$root/docs/report.png" "file://$work/report.html" 2>/dev/null
echo "wrote docs/report.png"
