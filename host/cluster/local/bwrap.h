// bubblewrap isolation: whether bwrap can run here, one container's bwrap command line (the host's
// filesystem bound at / with the pod's files on top, in new mount, PID and UTS namespaces), and its start.
#pragma once

#include <string>
#include <vector>

#include "host/cluster/local/mount_plan.h"
#include "host/cluster/local/process.h"

namespace jobhost::local {

/// Whether a trial `bwrap ... true` with the namespaces we use succeeds (run once per process).
bool bwrapWorks();

/// `bwrap [options] --` for one container (the mount plan as bwrap options); the command follows.
std::vector<std::string> bwrapArgs(const ContainerSandbox& sandbox);

/// Starts `command` under bwrap in `sandbox` (bwrap itself is found along jobhost's PATH). Once it
/// returns, the init of the container's PID namespace exists: `initPid`/`initPidfd` hold it (-1:
/// it has already exited, or bwrap failed before creating it and exits on its own).
Expected<Spawned> spawnBwrap(const SpawnRequest& command, const ContainerSandbox& sandbox);

}  // namespace jobhost::local
