#!/usr/bin/env bash
# Configures and builds jobhost (host, SDK, plugins, tests, benchmarks) into build/ with Ninja.
# Usage: scripts/build.sh [extra cmake args...]; BUILD_DIR overrides the directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
ninja -C "$build_dir" -j"$(nproc)"
