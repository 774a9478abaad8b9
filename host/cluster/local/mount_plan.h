// The mounts one container gets and their order, for native and bwrap isolation alike: the pod's
// files (hosts, hostname, volumes) over the host's filesystem, plus "shadow" tmpfs directories that
// give mount points missing on the host a place without creating anything there.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "host/cluster/local/sandbox.h"

namespace jobhost::local {

/// What one container's sandbox looks like.
struct ContainerSandbox {
  std::string hostname;
  std::string hostsFile;      // bound read-only at /etc/hosts ("": not bound)
  std::string hostnameFile;   // bound read-only at /etc/hostname ("": not bound)
  std::vector<Mount> mounts;  // the container's volume mounts
  std::string workingDir;     // "": jobhost's own
};

struct MountStep {
  enum class Kind {
    Shadow,   // a tmpfs with `mode` over `target` (a host directory, maybe "/"); its entries follow
    Entry,    // an entry of the shadowed directory before it: the host's `target` bound onto itself
    Symlink,  // a symlink entry of the shadowed directory before it: `target` -> `source`
    Bind,     // the pod's `source` at `target`
  };
  Kind kind = Kind::Bind;
  std::string source;
  std::string target;
  mode_t mode = 0;           // Shadow
  bool directory = false;    // Entry, Bind: the source is a directory (so is the mount point)
  bool readOnly = false;     // Bind
  bool createTarget = false;  // Bind: the mount point may be missing (in a shadow or an earlier bind)
};

/// The steps in order: each shadow (parents first) followed by its entries, then the binds — hosts,
/// hostname, then the volumes by mountPath depth. Reads the host's directories that need shadowing.
std::vector<MountStep> planMounts(const ContainerSandbox& sandbox);

}  // namespace jobhost::local
