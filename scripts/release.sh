#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the release packages of torchmigrate VERSION from a clean checkout:
#   scripts/release.sh 0.1.0
# Checks that VERSION is the one in CMakeLists.txt's project() and that the tree has no
# uncommitted change, builds in a fresh directory (build-release/, or TORCHMIGRATE_RELEASE_DIR),
# packs the .deb and .tar.gz with cpack, writes SHA256SUMS beside them and prints the `git tag`
# command to run. It pushes and uploads nothing.
set -euo pipefail

usage() {
  echo "usage: scripts/release.sh VERSION   (e.g. 0.1.0, as in CMakeLists.txt)" >&2
  exit 2
}
fail() {
  echo "release: error: $*" >&2
  exit 1
}

[ $# -eq 1 ] || usage
version="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TORCHMIGRATE_RELEASE_DIR:-$root/build-release}"
cd "$root"

project_version="$(sed -nE 's/^project\(torchmigrate VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' CMakeLists.txt)"
[ -n "$project_version" ] || fail "no \`project(torchmigrate VERSION x.y.z ...)\` in CMakeLists.txt"
[ "$version" = "$project_version" ] ||
  fail "version $version is not the one in CMakeLists.txt ($project_version); change project() first"
[ -z "$(git status --porcelain --untracked-files=normal)" ] ||
  fail "the working tree has uncommitted changes; a release is built from a commit (see \`git status\`)"
tag="v$version"
! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || fail "tag $tag exists already"

# A fresh directory: nothing from an earlier configuration or build gets into the packages.
rm -rf "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTORCHMIGRATE_BUILD_TESTS=OFF \
  -DTORCHMIGRATE_BUILD_BENCHMARKS=OFF
cmake --build "$build" --parallel "$(nproc)"
[ -f "$build/CPackConfig.cmake" ] ||
  fail "the build has no CPack configuration (CPackConfig.cmake): cmake/packaging.cmake with the DEB and TGZ generators is needed"
"$build/torchmigrate" --version

cd "$build"
for generator in DEB TGZ; do
  cpack -G "$generator" || fail "cpack -G $generator failed; is the $generator generator configured in cmake/packaging.cmake?"
done
shopt -s nullglob
packages=(*.deb *.tar.gz)
[ ${#packages[@]} -gt 0 ] || fail "cpack wrote no .deb or .tar.gz in $build"
sha256sum "${packages[@]}" >SHA256SUMS
# The GitHub Action (action.yml) downloads the .deb under Debian's file name.
debs=(torchmigrate_"${version}"_*.deb)
[ ${#debs[@]} -gt 0 ] || echo "release: warning: no torchmigrate_${version}_<arch>.deb; action.yml downloads that name" >&2

echo
echo "Packages and SHA256SUMS in $build:"
cat SHA256SUMS
echo
echo "Tag the release commit, push the tag, and attach the files above to the $tag release:"
echo "  git tag -a $tag -m \"torchmigrate $version\" $(git -C "$root" rev-parse --short HEAD)"
