// A pod's sandbox directory: logs/, hostname, and volumes/<name>/ holding the materialised
// ConfigMap and Secret volumes (Secret files 0600 unless the volume sets a mode; contents are
// never logged) and emptyDirs; plus the mounts each container gets at its volumeMounts' paths.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost::local {

/// One bind mount of a container: `source` on the host appears at `target` in the container.
struct Mount {
  std::string source;
  std::string target;
  bool readOnly = false;
  friend bool operator==(const Mount&, const Mount&) = default;
};

/// Where a sandbox reads ConfigMaps and Secrets from (the backend's object store).
struct ObjectLookup {
  std::function<std::optional<ConfigMap>(const std::string& name)> configMap;
  std::function<std::optional<Secret>(const std::string& name)> secret;
};

struct SandboxLayout {
  std::string root;     // <workDir>/<ns>/<job>/<pod>
  std::string pvcRoot;  // <workDir>/<ns>/pvc: one directory per claim

  std::string logsDir() const { return root + "/logs"; }
  std::string logFile(const std::string& container) const { return logsDir() + "/" + container + ".log"; }
  std::string hostnameFile() const { return root + "/hostname"; }
  std::string volumeDir(const std::string& volume) const { return root + "/volumes/" + volume; }
};

/// Creates the sandbox afresh (volumes are rewritten, logs are kept and appended to) and writes
/// every volume and, when asked (isolation binds it at /etc/hostname), the hostname file. Fails,
/// naming the object, when a ConfigMap or Secret that is not optional is missing or lacks a key an
/// item names.
Status prepareSandbox(const SandboxLayout& layout, const Pod& pod, const ObjectLookup& objects, bool hostnameFile);

/// Rewrites the volumes of `pod` that come from ConfigMap/Secret `name` (kind "ConfigMap" or
/// "Secret") after an update; files are replaced atomically, so bind-mounted directories see them.
Status refreshVolumes(const SandboxLayout& layout, const Pod& pod, const std::string& kind, const std::string& name,
                      const ObjectLookup& objects);

/// The mounts of `container`, in volumeMounts order: source is the volume's directory (subPath
/// applied), hostPath and persistentVolumeClaim volumes resolved. ConfigMap and Secret mounts are
/// read-only. Errors name the mount.
Expected<std::vector<Mount>> containerMounts(const SandboxLayout& layout, const Pod& pod, const Container& container);

/// The type of a volume the backend cannot provide ("nfs", "(none)"), or "" for configMap, secret,
/// emptyDir, persistentVolumeClaim and hostPath (with a path): the types containerMounts binds.
std::string unsupportedVolumeType(const Volume& volume);

}  // namespace jobhost::local
