#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++-14, ASan+UBSan+fuzzer) into build-fuzz and runs each for
# a set time. Usage: scripts/fuzz.sh [seconds per target, default 600] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(job_yaml job_json job_objects config flags quantity sim_script)
out=build-fuzz
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link \
  -DJOBHOST_SANITIZE=ON -DJOBHOST_FUZZ=ON -DJOBHOST_BUILD_TESTS=OFF -DJOBHOST_BUILD_BENCH=OFF >/dev/null
ninja -C "$out" -j"$(nproc)" "${targets[@]/#/fuzz_}"

export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_leaks=1"
status=0
for t in "${targets[@]}"; do
  work="$out/corpus/$t"  # new inputs go here; the seeds in fuzz/corpus stay untouched
  mkdir -p "$work" "$out/artifacts"
  echo "fuzz: $t for ${seconds}s"
  if ! "$out/bin/fuzz_$t" "$work" "fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
       -artifact_prefix="$out/artifacts/$t-" -print_final_stats=1 >"$out/fuzz_$t.log" 2>&1; then
    echo "fuzz: $t FAILED (see $out/fuzz_$t.log, inputs in $out/artifacts/)"
    status=1
  fi
  grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$out/fuzz_$t.log" | tail -2 || true
  echo "fuzz: $t corpus $(ls "$work" | wc -l) files"
done
exit $status
