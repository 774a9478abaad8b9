// Native isolation: jobhost starts a container itself in new mount, UTS and PID namespaces (clone,
// then the pod's mounts, hostname, working directory and command in the child; native_setup.h) whose
// PID 1 becomes a small init (container_init.c) that reaps and forwards signals; and how it ended.
#pragma once

#include <string>

#include "host/cluster/local/mount_plan.h"
#include "host/cluster/local/process.h"

namespace jobhost::local {

/// Starts `request.argv` (looked up along the env's PATH inside the container) in a new container
/// laid out as `sandbox` (its workingDir wins over request.workingDir). The returned pid is the
/// container's init: the leader of a process group of its own, killed when the calling thread ends;
/// TERM to it reaches the command's process group, KILL ends the whole container. Errors name the
/// setup step that failed, or are execError()'s when the command cannot be executed.
Expected<Spawned> spawnNative(const SpawnRequest& request, const ContainerSandbox& sandbox);

/// Reaps a native container's init (its pidfd is readable) and reads how the command ended from the
/// status pipe; an init killed before it reported reads as its own signal.
ExitInfo reapNative(pid_t pid, int statusFd);

/// Runs a trial container (`true`) once per process: "" when it worked, else why not.
const std::string& nativeTrial();

}  // namespace jobhost::local
