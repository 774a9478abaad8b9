// How containers are isolated: bubblewrap (a private mount, PID and UTS namespace per container,
// the host's filesystem bound at / with the pod's files on top) or nothing. The bwrap command line
// for one container, including "shadow" tmpfs directories that give missing mount points a place
// without creating anything on the host.
#pragma once

#include <string>
#include <vector>

#include "host/cluster/local/sandbox.h"
#include "host/common/expected.h"

namespace jobhost::local {

enum class Isolation { Bwrap, None };
const char* toString(Isolation isolation);

/// "none" -> None; "bwrap" -> Bwrap, or an error when bwrap cannot run here; "auto" -> Bwrap when
/// a trial `bwrap ... true` with the namespaces we use succeeds, else None.
Expected<Isolation> resolveIsolation(const std::string& setting);

/// What one container's sandbox looks like.
struct ContainerSandbox {
  std::string hostname;
  std::string hostsFile;     // bound read-only at /etc/hosts
  std::string hostnameFile;  // bound read-only at /etc/hostname
  std::vector<Mount> mounts;  // the container's volume mounts
  std::string workingDir;
};

/// `bwrap [options] --` for one container; the command follows. Pure apart from reading the
/// host's directories that need shadowing.
std::vector<std::string> bwrapArgs(const ContainerSandbox& sandbox);

}  // namespace jobhost::local
