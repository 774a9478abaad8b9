#!/usr/bin/env bash
# Builds the benchmarks (Release), runs every one with JSON output and writes BENCHMARKS.md at the
# repo root: machine, commands, each figure and target, pass/miss. BUILD_DIR overrides build-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${BUILD_DIR:-build-bench}"
benches=(render_bench pipeline_bench controller_bench controller_memory_bench local_bench)
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJOBHOST_BUILD_TESTS=OFF -DJOBHOST_BUILD_BENCH=ON >/dev/null
ninja -C "$out" -j"$(nproc)" "${benches[@]}"
report() {  # report <results dir> <build dir>: BENCHMARKS.md on stdout
python3 - "$@" <<'PY'
import json, os, platform, re, subprocess, sys
res_dir, build = sys.argv[1], sys.argv[2]
UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
runs = {}  # benchmark name -> run (the median aggregate when repetitions were used)
first = {}  # benchmark name -> its first repetition, when each repetition was reported
for f in sorted(os.listdir(res_dir)):
    if not f.endswith(".json"):
        continue
    try:
        data = json.load(open(os.path.join(res_dir, f)))
    except (OSError, ValueError):
        continue
    for b in data.get("benchmarks", []):
        # A burst of load on a shared machine moves one repetition's mean; the median ignores it.
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "iteration" and b.get("repetition_index", 0) == 0:
            first[name] = b
        runs[name] = b

def find(pattern, among=runs):
    for name, b in among.items():
        if re.fullmatch(pattern, name):
            return b
    return None

def seconds(b):  # real time per iteration in seconds
    return b["real_time"] * UNIT[b.get("time_unit", "ns")]

def value(pattern, get, among=runs):
    b = find(pattern, among)
    if b is None:
        return None, "missing"
    if b.get("error_occurred"):
        return None, "skipped: " + b.get("error_message", "")
    try:
        return get(b), None
    except (KeyError, ZeroDivisionError, TypeError):
        return None, "missing"

def fmt(x, unit):
    return f"{x:,.3g} {unit}" if abs(x) < 1000 else f"{x:,.0f} {unit}"

rows = []
def row(what, command, figure, target, ok):
    rows.append(f"| {what} | `{command}` | {figure} | {target} | {ok} |")

def check(what, command, pattern, get, unit, target, test, among=runs):
    v, why = value(pattern, get, among)
    if v is None:
        row(what, command, why, target, "missing")
    else:
        row(what, command, fmt(v, unit), target, "-" if target == "-" else "pass" if test(v) else "**miss**")
    return v

def ratio(what, command, num, den, target, test, note=""):
    (a, wa), (b, wb) = num, den
    if a is None or b is None:
        row(what, command, wa or wb or "missing", target, "missing")
        return
    r = a / b
    row(what, command, f"{r:.3f}{note}", target, "-" if target == "-" else "pass" if test(r) else "**miss**")

ms = lambda b: seconds(b) * 1e3
B = lambda name: f"{build}/bin/{name}"
check("render: 1 master + 256 workers, pytorch/env/svc/coscheduling from .so", B("render_bench"),
      r"BM_Render257PodPytorchJob/ssh:0", ms, "ms", "< 20 ms", lambda v: v < 20)
check("render: the same with ssh (RSA-2048 keygen per job)", B("render_bench"),
      r"BM_Render257PodPytorchJob/ssh:1", ms, "ms", "-", lambda v: True)
ips = lambda b: b["items_per_second"]
so = value(r"BM_PipelineJob/static:0/deadline:1(/.*)?", ips)
st = value(r"BM_PipelineJob/static:1/deadline:1(/.*)?", ips)
for label, pat in [("plugins from .so", "static:0/deadline:1"), ("plugins linked in", "static:1/deadline:1"),
                   ("from .so, pluginCallTimeout 0", "static:0/deadline:0")]:
    check(f"pipeline: 65-pod pytorch job, shipped plugins, {label}", B("pipeline_bench"),
          rf"BM_PipelineJob/{pat}(/.*)?", ips, "jobs/s", "-", lambda v: True)
ratio("pipeline: throughput .so / static", B("pipeline_bench"), so, st, ">= 0.95", lambda r: r >= 0.95)
ratio("pipeline: throughput deadline on / off (.so)", B("pipeline_bench"), so,
      value(r"BM_PipelineJob/static:0/deadline:0(/.*)?", ips), "-", lambda r: True)
jps = lambda b: b["jobs/s"]
check("controller: 10,000 jobs x 8 pods, 2 workers, no plugins", B("controller_bench"),
      r"BM_ManyJobsToCompletion/jobs:10000/plugins:0(/.*)?", jps, "jobs/s", ">= 20,000", lambda v: v >= 20000)
check("controller: the same, shipped plugins env/svc/coscheduling", B("controller_bench"),
      r"BM_ManyJobsToCompletion/jobs:10000/plugins:1(/.*)?", jps, "jobs/s", ">= 20,000", lambda v: v >= 20000)
check("controller: the same, pluginCallTimeout 0", B("controller_bench"),
      r"BM_ManyJobsToCompletion/jobs:10000/plugins:3(/.*)?", jps, "jobs/s", "-", lambda v: True)
check("controller: 10,000 jobs x 8 pods, no plugins, cold (first run in the process: memory first touch)",
      B("controller_bench"), r"BM_ManyJobsToCompletion/jobs:10000/plugins:0(/.*)?", jps, "jobs/s", "-",
      lambda v: True, among=first)
perpod = lambda b: b["s/pod"] * 1e6
p10 = value(r"BM_OneJobCostPerPod/10(/.*)?", perpod)
for n in (10, 100, 1000, 10000):
    check(f"controller: cost per pod, one job of {n:,} pods", B("controller_bench"),
          rf"BM_OneJobCostPerPod/{n}(/.*)?", perpod, "us", "-", lambda v: True)
ratio("controller: cost per pod at 10,000 / at 10", B("controller_bench"),
      value(r"BM_OneJobCostPerPod/10000(/.*)?", perpod), p10, "<= 2", lambda r: r <= 2)
w10 = value(r"BM_OneJobWithPluginsCostPerPod/10(/.*)?", perpod)
for n in (10, 10000):
    check(f"controller: cost per pod, one job of {n:,} pods, env/svc/coscheduling/mpi from .so", B("controller_bench"),
          rf"BM_OneJobWithPluginsCostPerPod/{n}(/.*)?", perpod, "us", "-", lambda v: True)
ratio("controller: the same, at 10,000 / at 10", B("controller_bench"),
      value(r"BM_OneJobWithPluginsCostPerPod/10000(/.*)?", perpod), w10, "<= 2", lambda r: r <= 2)
for n in (2500, 100000):
    check(f"sim: one gang of 20,000 one-CPU pods on {n:,} nodes of 8 CPUs, to Completed", B("controller_bench"),
          rf"BM_OneJobOnLargeCluster/nodes:{n}(/.*)?", ms, "ms", "-", lambda v: True)
ratio("sim: the same, 100,000 nodes / 2,500", B("controller_bench"),
      value(r"BM_OneJobOnLargeCluster/nodes:100000(/.*)?", ms), value(r"BM_OneJobOnLargeCluster/nodes:2500(/.*)?", ms),
      "-", lambda r: True)
check("controller: memory per cached pod", B("controller_memory_bench"),
      r"BM_ControllerMemoryPerCachedPod.*", lambda b: b["bytes/pod"], "bytes", "<= 2,048", lambda v: v <= 2048)
direct = value(r"BM_DirectSpawn64(/.*)?", ms)
for label, name in [("default isolation (auto: native here)", "BM_LocalJob64"), ("isolation none", "BM_LocalJob64None"),
                    ("isolation bwrap", "BM_LocalJob64Bwrap")]:
    check(f"local: 64-pod `true` job, submit to Completed, {label}", B("local_bench"), rf"{name}(/.*)?", ms, "ms",
          "-", lambda v: True)
check("local: 64 direct spawns of `true`", B("local_bench"), r"BM_DirectSpawn64(/.*)?", ms, "ms", "-", lambda v: True)
check("local: 64 native containers of `true`, no controller", B("local_bench"), r"BM_NativeSpawn64(/.*)?", ms, "ms",
      "-", lambda v: True)
ratio("local: job (default isolation) / direct spawn", B("local_bench"), value(r"BM_LocalJob64(/.*)?", ms), direct,
      "<= 1.5", lambda r: r <= 1.5)
ratio("local: job (isolation none) / direct spawn", B("local_bench"), value(r"BM_LocalJob64None(/.*)?", ms), direct,
      "<= 1.5", lambda r: r <= 1.5)
check("local: `mpirun -np 64 --oversubscribe true`", B("local_bench"), r"BM_Mpirun64(/.*)?", ms, "ms", "-",
      lambda v: True)

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
cpu = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
mem = sh("awk '/MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo")
osname = sh(". /etc/os-release && echo $PRETTY_NAME")
cxx = sh(f"grep -m1 CMAKE_CXX_COMPILER: {build}/CMakeCache.txt | cut -d= -f2")
print("# Benchmarks\n")
print("Written by `bench/run.sh` from Google Benchmark JSON output; do not edit by hand. Figures are")
print("wall-clock on a machine that may be shared; `missing` means the benchmark did not run or")
print("reported nothing (its log is in the build directory's bench-results/). A benchmark run with")
print("repetitions gives the median of its repetitions; a `cold` row is the first repetition of a")
print("process's first benchmark, which also faults in the process's memory.\n")
load = " ".join(open("/proc/loadavg").read().split()[:3])
print(f"- machine: {os.cpu_count()} CPUs ({cpu}), {mem} RAM, {osname}, load average {load} at the end")
print(f"- compiler: {cxx} ({sh(cxx + ' --version | head -1')}), CMAKE_BUILD_TYPE=Release")
print(f"- commands: `bash bench/run.sh` (each benchmark: `<binary> --benchmark_format=json`)\n")
print("| what | command | figure | target | result |\n|---|---|---|---|---|")
print("\n".join(rows))
PY
}

mkdir -p "$out/bench-results"
for b in "${benches[@]}"; do
  echo "bench: $b"
  # A benchmark binary that crashes still leaves the others' figures; the report marks it missing.
  "$out/bin/$b" --benchmark_format=json --benchmark_out="$out/bench-results/$b.json" \
    --benchmark_out_format=json >"$out/bench-results/$b.log" 2>&1 || echo "bench: $b exited with $?"
done
report "$out/bench-results" "$out" > BENCHMARKS.md
echo "bench: wrote BENCHMARKS.md"
