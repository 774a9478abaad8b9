#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test (ctest). This is what CI runs.
# Exits non-zero on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" --timeout 600
