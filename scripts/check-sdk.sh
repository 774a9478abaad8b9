#!/usr/bin/env bash
# Checks the installed SDK end to end, as a third party uses it: installs the build into a temporary
# prefix, builds examples/out-of-tree-plugin against it in a separate tree, runs its tests, then
# renders a TensorFlow job with the freshly built plugin enabled by a config file (pluginPath).
# Usage: scripts/check-sdk.sh (after scripts/build.sh); BUILD_DIR overrides build/. Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

echo "check-sdk: installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null

echo "check-sdk: building examples/out-of-tree-plugin against the installed SDK"
cmake -S examples/out-of-tree-plugin -B "$tmp/example" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
ninja -C "$tmp/example" -j"$(nproc)" | grep -v "^\[" || true
test -x "$tmp/example/tensorflow_test"
ctest --test-dir "$tmp/example" --output-on-failure -j"$(nproc)"

echo "check-sdk: rendering a TensorFlow job with the plugin enabled by config"
plugin_dir="$(dirname "$(find "$prefix" -name libjobhost_env.so -print -quit)")"
cat >"$tmp/jobhost.json" <<JSON
{
  "pluginPath": ["$plugin_dir", "$tmp/example/plugins"],
  "plugins": [{"name": "env"}, {"name": "svc"}, {"name": "tensorflow", "args": ["--port=2222"]}]
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
echo "check-sdk: OK (TF_CONFIG rendered by the out-of-tree plugin)"
