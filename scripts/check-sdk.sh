#!/usr/bin/env bash
# Checks the installed SDK end to end, as a third party uses it:
#  1. installs the build into a temporary prefix and checks that every version agrees (version.h,
#     `jobhost --version`, the CMake package, pkg-config);
#  2. find_package(jobhost <version> CONFIG) accepts and refuses the versions it should;
#  3. builds examples/out-of-tree-plugin against the prefix in a separate tree, checks that only the
#     entry symbol is exported (hidden visibility), and runs its harness tests;
#  4. builds a tiny plugin with nothing but `pkg-config --cflags --libs jobhost` and loads it with the
#     installed `jobhost plugins`, then renders a job with it;
#  5. renders a TensorFlow job with the freshly built example plugin enabled by a config file.
# Usage: scripts/check-sdk.sh (after scripts/build.sh); BUILD_DIR overrides build/. Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() {
  echo "check-sdk: FAILED: $*" >&2
  exit 1
}

echo "check-sdk: installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for f in bin/jobhost include/jobhost/jobhost.h include/jobhost/version.h include/jobhost/testing/testing.h; do
  test -e "$prefix/$f" || fail "$f is not installed"
done
libdir="$(dirname "$(find "$prefix" -name 'libjobhost_sdk.so' -print -quit)")"
for f in libjobhost_sdk.so libjobhost_testing.so cmake/jobhost/jobhostConfig.cmake \
  cmake/jobhost/jobhostConfigVersion.cmake pkgconfig/jobhost.pc pkgconfig/jobhost-sdk.pc; do
  test -e "$libdir/$f" || fail "$f is not installed in $libdir"
done
for p in env svc ssh torch mpi tensorflow ray hcclrank coscheduling; do
  test -e "$libdir/jobhost/plugins/libjobhost_$p.so" || fail "shipped plugin $p is not installed"
done

echo "check-sdk: versions agree (version.h, jobhost --version, CMake package, pkg-config)"
header_version() { sed -n "s/^#define JOBHOST_$1 \([0-9]*\)$/\1/p" sdk/include/jobhost/version.h; }
major="$(header_version SDK_VERSION_MAJOR)"
minor="$(header_version SDK_VERSION_MINOR)"
patch="$(header_version SDK_VERSION_PATCH)"
abi="$(header_version ABI_MAJOR).$(header_version ABI_MINOR)"
version="$major.$minor.$patch"
"$prefix/bin/jobhost" --version | grep -qF "jobhost $version (plugin ABI $abi," ||
  fail "jobhost --version says \"$("$prefix/bin/jobhost" --version)\", version.h says $version, ABI $abi"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[[ "$(pkg-config --modversion jobhost)" == "$version" ]] || fail "jobhost.pc has version $(pkg-config --modversion jobhost)"
[[ "$(pkg-config --variable=abi_major jobhost).$(pkg-config --variable=abi_minor jobhost)" == "$abi" ]] ||
  fail "jobhost.pc has the wrong ABI"
[[ "$(pkg-config --cflags --libs jobhost-sdk)" == "$(pkg-config --cflags --libs jobhost)" ]] ||
  fail "jobhost-sdk.pc is not an alias of jobhost.pc"

echo "check-sdk: find_package(jobhost <version> CONFIG) compatibility"
mkdir -p "$tmp/find"
cat >"$tmp/find/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(jobhost_find_package_check LANGUAGES CXX)
find_package(jobhost ${REQUEST} CONFIG QUIET)
message(STATUS "jobhost-check: found=${jobhost_FOUND} version=${jobhost_VERSION} abi=${JOBHOST_ABI_MAJOR}.${JOBHOST_ABI_MINOR}")
CMAKE
find_with() {  # find_with "<version args>" -> prints found=... line
  cmake -S "$tmp/find" -B "$tmp/find/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -Ujobhost_DIR \
    "-DREQUEST=$1" 2>&1 | sed -n 's/^-- jobhost-check: //p'
}
expect_found() {
  local got
  got="$(find_with "$1")"
  [[ "$got" == "found=1 version=$version abi=$abi" ]] || fail "find_package(jobhost ${1//;/ }) gave \"$got\", expected $version"
}
expect_refused() {
  local got
  got="$(find_with "$1")"
  [[ "$got" == found=0* ]] || fail "find_package(jobhost ${1//;/ }) accepted $version: \"$got\""
}
expect_found ""
expect_found "$major.$minor"
expect_found "$version;EXACT"
expect_found "$major.$minor...<$major.$((minor + 1))"
expect_refused "$major.$((minor + 1))"
expect_refused "$((major + 1))"
expect_refused "$major.$minor.$((patch + 1))"
if [[ "$major" == 0 && "$minor" != 0 ]]; then
  expect_refused "0"  # 0.x: a different minor may break the SDK
else
  expect_found "$major"
fi

echo "check-sdk: building examples/out-of-tree-plugin against the installed SDK"
cmake -S examples/out-of-tree-plugin -B "$tmp/example" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
ninja -C "$tmp/example" -j"$(nproc)" | grep -v "^\[" || true
test -x "$tmp/example/tensorflow_test"
tf_so="$tmp/example/plugins/libjobhost_tensorflow.so"
nm -D --defined-only "$tf_so" | grep -qw jobhost_plugin_entry || fail "$tf_so does not export jobhost_plugin_entry"
if nm -DC --defined-only "$tf_so" | grep -E "TensorflowPlugin|tfConfig|parseOptions"; then
  fail "$tf_so exports its own code: jobhost_add_plugin must build with hidden visibility"
fi
ctest --test-dir "$tmp/example" --output-on-failure -j"$(nproc)"

echo "check-sdk: building a plugin with only pkg-config --cflags --libs jobhost"
mkdir -p "$tmp/pc/plugins"
cat >"$tmp/pc/tiny.cpp" <<'CPP'
// A minimal plugin: TINY=<pod index> on every container; the --value flag is checked at admission.
#include <jobhost/jobhost.h>

namespace {
using namespace jobhost;

class TinyPlugin final : public ValidationPlugin, public JobHooksPlugin {
 public:
  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    std::string value;
    if (Status st = parse(args, value); !st) out.errors.push_back({"spec.plugins.tiny", st.message()});
    return Status::ok();
  }
  Status onJobAdd(JobContext& ctx) override { return volcano::setMarker(ctx, "tiny"), Status::ok(); }
  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    std::string value = volcano::podIndex(pod.metadata.name);
    if (Status st = parse(ctx.args(), value); !st) return st;
    for (auto& c : pod.spec.containers) ctx.setEnv(c, EnvVar::literal("TINY", value));
    return Status::ok();
  }
  Status onJobUpdate(JobContext&) override { return Status::ok(); }
  Status onJobDelete(JobContext& ctx) override { return volcano::clearMarker(ctx, "tiny"), Status::ok(); }

 private:
  static Status parse(const PluginArgs& args, std::string& value) {
    FlagSet flags("plugin tiny");
    flags.addString("value", &value);
    return flags.parse(args);
  }
};
}  // namespace

JOBHOST_PLUGIN(TinyPlugin, "tiny", "0.0.1")
CPP
# shellcheck disable=SC2046
c++ -Wall -Wextra -Werror -O2 -shared -o "$tmp/pc/plugins/libjobhost_tiny.so" "$tmp/pc/tiny.cpp" \
  $(pkg-config --cflags --libs jobhost)
nm -D --defined-only "$tmp/pc/plugins/libjobhost_tiny.so" | grep -qw jobhost_plugin_entry ||
  fail "the pkg-config plugin does not export jobhost_plugin_entry"
if nm -DC --defined-only "$tmp/pc/plugins/libjobhost_tiny.so" | grep TinyPlugin; then
  fail "the pkg-config plugin exports its own code: jobhost.pc's Cflags must hide it"
fi
cat >"$tmp/pc/jobhost.json" <<JSON
{"pluginPath": ["$libdir/jobhost/plugins", "plugins"], "plugins": [{"name": "env"}, {"name": "tiny", "args": ["--value=x"]}]}
JSON
"$prefix/bin/jobhost" plugins --config "$tmp/pc/jobhost.json" >"$tmp/pc/plugins.txt" ||
  fail "jobhost plugins refused the pkg-config plugin: $(cat "$tmp/pc/plugins.txt")"
grep -E "^tiny +0\.0\.1 +$abi +.*Validation.*JobHooks.* +job +$tmp/pc/plugins/libjobhost_tiny\.so$" \
  "$tmp/pc/plugins.txt" >/dev/null || fail "jobhost plugins does not list tiny: $(cat "$tmp/pc/plugins.txt")"
cat >"$tmp/pc/job.yaml" <<'YAML'
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tiny-job}
spec:
  plugins: {tiny: ["--value=from-the-job"]}
  tasks: [{name: w, replicas: 2, template: {spec: {containers: [{name: main, image: busybox}]}}}]
YAML
"$prefix/bin/jobhost" render -o json --config "$tmp/pc/jobhost.json" "$tmp/pc/job.yaml" >"$tmp/pc/rendered.json"
python3 - "$tmp/pc/rendered.json" <<'PY'
import json, sys
items = json.load(open(sys.argv[1]))["items"]
got = {i["metadata"]["name"]: [e.get("value") for c in i["spec"]["containers"] for e in c.get("env", []) if e["name"] == "TINY"]
       for i in items if i["kind"] == "Pod"}
if got != {"tiny-job-w-0": ["from-the-job"], "tiny-job-w-1": ["from-the-job"]}:
    sys.exit("check-sdk: FAILED: TINY of the rendered pods is %r" % got)
PY
sed -i 's/"--value=from-the-job"/"--colour=red"/' "$tmp/pc/job.yaml"
if "$prefix/bin/jobhost" validate --config "$tmp/pc/jobhost.json" "$tmp/pc/job.yaml" >"$tmp/pc/validate.txt" 2>&1; then
  fail "jobhost validate accepted an unknown flag of the pkg-config plugin"
fi
grep -qF "plugin tiny: flag provided but not defined: -colour" "$tmp/pc/validate.txt" ||
  fail "jobhost validate did not report the unknown flag: $(cat "$tmp/pc/validate.txt")"

echo "check-sdk: rendering a TensorFlow job with the plugin enabled by config"
cat >"$tmp/jobhost.json" <<JSON
{
  "pluginPath": ["$libdir/jobhost/plugins"],
  "plugins": [{"name": "env"}, {"name": "svc"}, {"name": "tensorflow", "path": "$tf_so", "args": ["--port=2222"]}]
}
JSON
"$prefix/bin/jobhost" render -o json --config "$tmp/jobhost.json" \
  examples/out-of-tree-plugin/jobs/tensorflow-dist-mnist.yaml >"$tmp/rendered.json"
expected='{"cluster":{"ps":["tf-dist-mnist-ps-0.tf-dist-mnist:2222"],"worker":["tf-dist-mnist-worker-0.tf-dist-mnist:2222","tf-dist-mnist-worker-1.tf-dist-mnist:2222"]},"task":{"type":"worker","index":1}}'
python3 - "$tmp/rendered.json" "$expected" <<'PY'
import json, sys
items = json.load(open(sys.argv[1]))["items"]
found = [e.get("value") for i in items if i["kind"] == "Pod" and i["metadata"]["name"] == "tf-dist-mnist-worker-1"
         for c in i["spec"]["containers"] for e in c.get("env", []) if e["name"] == "TF_CONFIG"]
if found != [sys.argv[2]]:
    sys.exit("check-sdk: FAILED: TF_CONFIG of tf-dist-mnist-worker-1 is %r, expected %r" % (found, sys.argv[2]))
PY
echo "check-sdk: OK (versions, find_package, out-of-tree plugin and tests, pkg-config plugin, TF_CONFIG rendered)"
