#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GitHub Action's install step (action.yml): puts torchmigrate on the job's PATH.
#
# The version is the `version` input, else the tag the workflow names the action by
# (`uses: owner/torchmigrate@v0.1.0` -> 0.1.0). On Debian 12 (a `container: debian:12` job) a
# release's .deb is installed with apt; anywhere else (ubuntu-latest, a branch or commit ref, a
# local `uses: ./`) torchmigrate is built from source with scripts/bootstrap.sh, which installs
# the build packages with apt (Debian and Ubuntu name them alike).
#
# Inputs (environment): TORCHMIGRATE_VERSION (may be empty), TORCHMIGRATE_ACTION_REF,
# TORCHMIGRATE_ACTION_PATH (the action's checkout), TORCHMIGRATE_REPOSITORY (its URL),
# RUNNER_TEMP, GITHUB_PATH. TORCHMIGRATE_OS_RELEASE (default /etc/os-release) and
# TORCHMIGRATE_INSTALL_PLAN=1 (print what would be done, do nothing) are for the tests.
set -euo pipefail

version="${TORCHMIGRATE_VERSION:-}"
ref="${TORCHMIGRATE_ACTION_REF:-}"
if [ -z "$version" ] && [[ "$ref" =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
  version="${BASH_REMATCH[1]}"
fi
version="${version#v}"
os_release="${TORCHMIGRATE_OS_RELEASE:-/etc/os-release}"
# shellcheck source=/dev/null
codename="$(. "$os_release" 2>/dev/null && echo "${ID:-}-${VERSION_CODENAME:-}")"

# Where the source to build is: the action's own checkout when it is the version asked for.
source_dir="${TORCHMIGRATE_ACTION_PATH:-}"
if [ -n "$version" ] && [ "$ref" != "v$version" ]; then
  source_dir=""  # another release than the action's ref: cloned at its tag below
fi

if [ "$codename" = "debian-bookworm" ] && [ -n "$version" ]; then
  plan="deb $version"
elif [ -n "$source_dir" ]; then
  plan="source $source_dir"
elif [ -n "$version" ]; then
  plan="clone v$version"
else
  echo "torchmigrate: cannot tell which version to install: set the action's \`version\` input" >&2
  exit 2
fi
if [ "${TORCHMIGRATE_INSTALL_PLAN:-}" = 1 ]; then
  echo "$plan"
  exit 0
fi

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
case "$plan" in
  deb*)
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends curl ca-certificates
    deb="torchmigrate_${version}_amd64.deb"
    curl -fsSL -o "$RUNNER_TEMP/$deb" "$TORCHMIGRATE_REPOSITORY/releases/download/v$version/$deb"
    # apt installs the package's runtime libraries with it.
    $sudo_cmd apt-get install -y -qq --no-install-recommends "$RUNNER_TEMP/$deb"
    ;;
  *)
    if [ -z "$source_dir" ]; then
      command -v git >/dev/null || { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq git; }
      source_dir="$RUNNER_TEMP/torchmigrate-src"
      git clone -q --depth 1 --branch "v$version" "$TORCHMIGRATE_REPOSITORY" "$source_dir"
    fi
    build="$RUNNER_TEMP/torchmigrate-build"
    TORCHMIGRATE_BUILD_DIR="$build" bash "$source_dir/scripts/bootstrap.sh" demo >/dev/null
    echo "$build" >> "$GITHUB_PATH"
    export PATH="$build:$PATH"
    ;;
esac
torchmigrate --version
