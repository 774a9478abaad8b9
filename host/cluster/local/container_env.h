// A container's environment and argv as the kubelet builds them: envFrom, then env with valueFrom
// (configMapKeyRef, secretKeyRef, fieldRef, resourceFieldRef) resolved from the stored objects,
// $(VAR) expansion (with $$ escaping) in env values, command and args.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/cluster/local/capacity.h"
#include "host/cluster/local/sandbox.h"
#include "host/common/expected.h"
#include "jobhost/pod.h"

namespace jobhost::local {

/// Kubernetes' expansion.Expand: $(NAME) becomes lookup(NAME) when defined, else stays as written;
/// $$ becomes $; any other $ stays.
std::string expandVariables(const std::string& text,
                            const std::function<std::optional<std::string>(const std::string&)>& lookup);

struct EnvInputs {
  const Pod* pod = nullptr;
  std::string podIP;
  std::string nodeName;
  Resources nodeCapacity;  // resourceFieldRef limits default to it
  ObjectLookup objects;
  /// Set first, overridable by the container: the host's environment plus jobhost's own variables.
  std::vector<std::pair<std::string, std::string>> base;
};

/// name -> value, in definition order, for one container. Fails (naming the variable and what is
/// missing) when a ConfigMap, Secret or key that is not optional does not exist.
Expected<std::vector<std::pair<std::string, std::string>>> containerEnv(const Container& container,
                                                                        const EnvInputs& inputs);

/// command + args with $(VAR) expanded against `env`.
std::vector<std::string> containerArgv(const Container& container,
                                       const std::vector<std::pair<std::string, std::string>>& env);

}  // namespace jobhost::local
