#!/usr/bin/env bash
# Installs every build, test and runtime dependency of jobhost from Debian's archive.
# Does nothing when they are all present. Needs root (or sudo).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  clang-14 libclang-rt-14-dev            # second compiler, sanitizers and libFuzzer
  libboost1.81-dev                       # Boost.DLL, Asio, Process (headers)
  rapidjson-dev libspdlog-dev libyaml-cpp-dev libssl-dev
  libmimalloc-dev                        # the executables' allocator (CMakeLists.txt: jobhost::allocator)
  libgtest-dev libgmock-dev libbenchmark-dev
  bubblewrap                             # private mount namespace for local pods
  openmpi-bin libopenmpi-dev openssh-server openssh-client  # the MPI example job
  python3 procps util-linux              # the PyTorch-style example; process checks; nsenter
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
