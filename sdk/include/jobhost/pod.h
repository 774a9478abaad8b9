// Kubernetes pod value types: containers, env, ports, volumes, mounts, resources, Pod and its status.
// Only the fields plugins and backends use are modelled; everything else is kept in `unknown`.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jobhost/meta.h"
#include "jobhost/quantity.h"

namespace jobhost {

struct KeySelector {  // configMapKeyRef / secretKeyRef
  std::string name;
  std::string key;
  std::optional<bool> optional;
  friend bool operator==(const KeySelector&, const KeySelector&) = default;
};

struct FieldSelector {  // fieldRef
  std::string apiVersion;
  std::string fieldPath;
  friend bool operator==(const FieldSelector&, const FieldSelector&) = default;
};

struct ResourceFieldSelector {  // resourceFieldRef
  std::string containerName;
  std::string resource;
  std::optional<Quantity> divisor;
  friend bool operator==(const ResourceFieldSelector&, const ResourceFieldSelector&) = default;
};

struct EnvVarSource {
  std::optional<KeySelector> configMapKeyRef;
  std::optional<KeySelector> secretKeyRef;
  std::optional<FieldSelector> fieldRef;
  std::optional<ResourceFieldSelector> resourceFieldRef;
  friend bool operator==(const EnvVarSource&, const EnvVarSource&) = default;
};

/// One environment variable: a literal `value`, or `valueFrom` a ConfigMap/Secret/field.
struct EnvVar {
  std::string name;
  std::string value;
  std::optional<EnvVarSource> valueFrom;

  static EnvVar literal(std::string name, std::string value) {
    EnvVar e;
    e.name = std::move(name);
    e.value = std::move(value);
    return e;
  }
  friend bool operator==(const EnvVar&, const EnvVar&) = default;
};

struct ContainerPort {
  std::string name;
  int32_t containerPort = 0;
  std::string protocol;  // empty means TCP
  int32_t hostPort = 0;
  std::string hostIP;
  friend bool operator==(const ContainerPort&, const ContainerPort&) = default;
};

struct VolumeMount {
  std::string name;
  std::string mountPath;
  std::string subPath;
  bool readOnly = false;
  UnknownFields unknown;
  friend bool operator==(const VolumeMount&, const VolumeMount&) = default;
};

struct ResourceRequirements {
  ResourceList requests;
  ResourceList limits;
  UnknownFields unknown;
  friend bool operator==(const ResourceRequirements&, const ResourceRequirements&) = default;
};

struct Container {
  std::string name;
  std::string image;
  std::vector<std::string> command;
  std::vector<std::string> args;
  std::string workingDir;
  std::vector<EnvVar> env;
  std::vector<ContainerPort> ports;
  ResourceRequirements resources;
  std::vector<VolumeMount> volumeMounts;
  UnknownFields unknown;  // e.g. readinessProbe, securityContext, envFrom, imagePullPolicy
  friend bool operator==(const Container&, const Container&) = default;
};

struct KeyToPath {
  std::string key;
  std::string path;
  std::optional<int32_t> mode;
  friend bool operator==(const KeyToPath&, const KeyToPath&) = default;
};

struct ConfigMapVolumeSource {
  std::string name;
  std::vector<KeyToPath> items;
  std::optional<int32_t> defaultMode;
  std::optional<bool> optional;
  friend bool operator==(const ConfigMapVolumeSource&, const ConfigMapVolumeSource&) = default;
};

struct SecretVolumeSource {
  std::string secretName;
  std::vector<KeyToPath> items;
  std::optional<int32_t> defaultMode;
  std::optional<bool> optional;
  friend bool operator==(const SecretVolumeSource&, const SecretVolumeSource&) = default;
};

struct EmptyDirVolumeSource {
  std::string medium;
  std::optional<Quantity> sizeLimit;
  friend bool operator==(const EmptyDirVolumeSource&, const EmptyDirVolumeSource&) = default;
};

struct PersistentVolumeClaimVolumeSource {
  std::string claimName;
  bool readOnly = false;
  friend bool operator==(const PersistentVolumeClaimVolumeSource&, const PersistentVolumeClaimVolumeSource&) = default;
};

/// A pod volume. At most one source is set; sources jobhost does not model (hostPath, nfs, ...)
/// stay in `unknown`.
struct Volume {
  std::string name;
  std::optional<ConfigMapVolumeSource> configMap;
  std::optional<SecretVolumeSource> secret;
  std::optional<EmptyDirVolumeSource> emptyDir;
  std::optional<PersistentVolumeClaimVolumeSource> persistentVolumeClaim;
  UnknownFields unknown;
  friend bool operator==(const Volume&, const Volume&) = default;
};

struct PodSpec {
  std::vector<Container> initContainers;
  std::vector<Container> containers;
  std::vector<Volume> volumes;
  std::string hostname;
  std::string subdomain;
  std::string restartPolicy;  // Always | OnFailure | Never (empty: Kubernetes default Always)
  std::string priorityClassName;
  std::string schedulerName;
  std::string dnsPolicy;
  bool hostNetwork = false;
  UnknownFields unknown;  // nodeSelector, tolerations, affinity, securityContext, ...
  friend bool operator==(const PodSpec&, const PodSpec&) = default;
};

struct PodTemplateSpec {
  ObjectMeta metadata;
  PodSpec spec;
  friend bool operator==(const PodTemplateSpec&, const PodTemplateSpec&) = default;
};

enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };
const char* toString(PodPhase phase);

struct ContainerStateTerminated {
  int32_t exitCode = 0;
  int32_t signal = 0;
  std::string reason;
  std::string message;
  friend bool operator==(const ContainerStateTerminated&, const ContainerStateTerminated&) = default;
};

struct ContainerStatus {
  std::string name;
  bool ready = false;
  int32_t restartCount = 0;
  bool running = false;                                // state.running is set
  std::optional<ContainerStateTerminated> terminated;  // state.terminated
  std::optional<ContainerStateTerminated> lastTerminated;
  friend bool operator==(const ContainerStatus&, const ContainerStatus&) = default;
};

struct PodStatus {
  PodPhase phase = PodPhase::Pending;
  std::string reason;
  std::string message;
  std::string podIP;
  std::string nodeName;
  std::vector<ContainerStatus> initContainerStatuses;
  std::vector<ContainerStatus> containerStatuses;
  friend bool operator==(const PodStatus&, const PodStatus&) = default;
};

struct Pod {
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
  friend bool operator==(const Pod&, const Pod&) = default;
};

/// The GPUs of a pod as Trainer counts them (spec/trainer-plugin-framework.md §1.5): every resource
/// whose name contains "gpu" in any case, per container its requests, else its limits, summed.
inline int64_t gpusRequested(const std::vector<Container>& containers) {
  const auto gpusIn = [](const ResourceList& list) {
    int64_t n = 0;
    for (const auto& [name, quantity] : list) {
      std::string lower = name;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower.find("gpu") != std::string::npos) n += quantity.value();
    }
    return n;
  };
  int64_t gpus = 0;
  for (const auto& c : containers) {
    const int64_t requested = gpusIn(c.resources.requests);
    gpus += requested != 0 ? requested : gpusIn(c.resources.limits);
  }
  return gpus;
}

}  // namespace jobhost
