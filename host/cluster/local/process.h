// Child processes of the local backend: posix_spawn into a new process group with stdout/stderr
// on a given descriptor (a log pipe), a pidfd to wait on, exit codes as Kubernetes reports them, and signals
// to a container's process group.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/common/expected.h"

namespace jobhost::local {

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0] without '/' is looked up along the env's PATH
  std::vector<std::pair<std::string, std::string>> env;
  std::string workingDir;  // empty: jobhost's own
  int outputFd = -1;       // stdout and stderr (the caller keeps it open); -1: /dev/null
  int inheritedFd = -1;    // when set (> 3), the child's descriptor 3 (bwrap's --info-fd)
};

struct Spawned {
  pid_t pid = -1;      // also the process group id
  int pidfd = -1;      // readable once the process has exited; the caller closes it
  int statusFd = -1;   // native containers: the init's status pipe (reapNative); the caller closes it
  pid_t initPid = -1;  // bwrap containers: the init of the container's PID namespace, while it lives
  int initPidfd = -1;  // ... and its pidfd, readable once the namespace is empty; the caller closes it
};

/// Starts the process in a process group of its own with default signal dispositions, an empty
/// signal mask, stdin from /dev/null and no other inherited descriptors.
Expected<Spawned> spawnProcess(const SpawnRequest& request);

/// Starts `argv` (argv[0] looked up along PATH) as a plain child with stdout and stderr on
/// /dev/null, for trials and benchmarks; its pid, or -1 when it cannot start.
pid_t spawnSilently(std::vector<std::string> argv);

/// The exit of a reaped process: its status, or 128+signal with `signal` set.
struct ExitInfo {
  int32_t exitCode = 0;
  int32_t signal = 0;
};
/// Reaps `pid` (which must have exited, e.g. its pidfd is readable).
ExitInfo reapProcess(pid_t pid);

/// `name` itself when it contains '/', else the first executable along `path`; "" when none.
std::string findExecutable(const std::string& name, const std::string& path);
/// Where execvp would try `name`: itself when it contains '/', else each directory of `path`
/// (the default search path when empty) joined with it.
std::vector<std::string> executableCandidates(const std::string& name, const std::string& path);
/// Why `name` could not be executed: "executable \"name\" not found in PATH" or "cannot start ...".
std::string execError(const std::string& name, int err);
/// The value of `name` in `env`, or "".
std::string envValue(const std::vector<std::pair<std::string, std::string>>& env, const std::string& name);

/// The pids whose process group is `pgid` (scans /proc).
std::vector<pid_t> processGroupMembers(pid_t pgid);

/// Sends `sig` to a container's process group (a native container's is its init alone, which
/// forwards the signal to the command's group). With `sparedInit` set (a bwrap container's init),
/// bwrap and that init are spared so that they reap the container and report its exit.
/// Returns how many processes were signalled (a bwrap container may not have exec'd yet: 0).
int signalContainer(pid_t pgid, int sig, std::optional<pid_t> sparedInit = std::nullopt);

/// Kills a container outright. A bwrap container (`initPidfd` >= 0) is killed through the init of
/// its PID namespace: the kernel kills the whole namespace, setsid'd processes too, before that
/// init dies. Other containers (and a bwrap whose init is gone) get SIGKILL to their process group.
void killContainer(pid_t pgid, int initPidfd);

}  // namespace jobhost::local
