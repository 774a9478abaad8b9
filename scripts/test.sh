#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every check CI runs: the test suite, the
# installed SDK with the out-of-tree plugin, sanitizer suites and a fuzz smoke. Stops on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() {  # stage <label> <command...>: runs one stage and prints how long it took
  local label="$1" start=$SECONDS
  shift
  echo "== test.sh: $label"
  "$@"
  echo "== test.sh: $label passed in $((SECONDS - start)) s"
}

stage "setup" bash scripts/setup.sh
stage "build" bash scripts/build.sh
stage "tests" ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" --timeout 600
stage "installed SDK + out-of-tree plugin" bash scripts/check-sdk.sh
stage "sanitizers (ASan+UBSan full suite, TSan controller/local)" bash scripts/sanitizers.sh
stage "fuzz smoke (20 s per target)" bash scripts/fuzz.sh 20
