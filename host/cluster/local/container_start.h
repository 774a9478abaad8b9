// One container's start, split so that starts can overlap: what to start (the command, its
// environment and log, and for native or bwrap isolation the container's sandbox) is decided on the
// backend's loop; starting it (spawnProcess, spawnNative, or bwrap) may then run on any thread.
#pragma once

#include "host/cluster/local/isolation.h"
#include "host/cluster/local/mount_plan.h"
#include "host/cluster/local/process.h"

namespace jobhost::local {

struct ContainerStart {
  Isolation isolation = Isolation::None;
  SpawnRequest request;      // none: with the working directory; native, bwrap: the sandbox has it
  ContainerSandbox sandbox;  // native and bwrap
};

/// Starts the container's process under its isolation. The calling thread must outlive it
/// (native and bwrap containers die with the thread that started them).
Expected<Spawned> startContainer(const ContainerStart& start);

}  // namespace jobhost::local
