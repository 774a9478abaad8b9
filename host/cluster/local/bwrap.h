// bubblewrap isolation: whether bwrap can run here, and one container's bwrap command line (the
// host's filesystem bound at / with the pod's files on top, in new mount, PID and UTS namespaces).
#pragma once

#include <string>
#include <vector>

#include "host/cluster/local/mount_plan.h"

namespace jobhost::local {

/// Whether a trial `bwrap ... true` with the namespaces we use succeeds (run once per process).
bool bwrapWorks();

/// `bwrap [options] --` for one container (the mount plan as bwrap options); the command follows.
std::vector<std::string> bwrapArgs(const ContainerSandbox& sandbox);

}  // namespace jobhost::local
