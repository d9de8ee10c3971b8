# SPDX-License-Identifier: MIT
# torchmigrate in a container, for CI jobs and the `torchmigrate-docker` pre-commit hook.
#   docker build -t torchmigrate .
#   docker run --rm -v "$PWD:/src" torchmigrate check .
# The build stage installs and builds exactly as scripts/bootstrap.sh does on Debian 12 (and
# runs its demo check as a smoke test); the runtime stage holds the binary and its shared
# libraries only.

FROM debian:12 AS build
WORKDIR /torchmigrate
# Only what the build reads, so editing docs or tests does not invalidate the layers.
COPY CMakeLists.txt package.json package-lock.json ./
COPY cmake/ cmake/
COPY include/ include/
COPY src/ src/
COPY rules/ rules/
COPY scripts/bootstrap.sh scripts/
COPY examples/legacy-project/ examples/legacy-project/
RUN scripts/bootstrap.sh demo \
 && cmake --install build --prefix /opt/torchmigrate --strip

FROM debian:12-slim
# The packages of the libraries the binary links against (tests/e2e/test_ci_recipes.py checks
# this list against `ldd`); apt brings their own dependencies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libclang1-14 libgit2-1.5 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/torchmigrate/bin/torchmigrate /usr/local/bin/torchmigrate
# pre-commit mounts the repository here and runs the hook from it.
WORKDIR /src
ENTRYPOINT ["torchmigrate"]
CMD ["check", "."]
