// The other Kubernetes objects a job creates: PodGroup, ConfigMap, Secret, Service, NetworkPolicy,
// and Components, the bundle a ComponentBuild plugin returns.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jobhost/meta.h"
#include "jobhost/quantity.h"

namespace jobhost {

struct NetworkTopologySpec {
  std::string mode;  // hard | soft
  std::optional<int32_t> highestTierAllowed;
  std::string highestTierName;
  friend bool operator==(const NetworkTopologySpec&, const NetworkTopologySpec&) = default;
};

struct SubGroupPolicy {
  std::string name;
  int32_t subGroupSize = 0;
  int32_t minSubGroups = 0;
  LabelSelector labelSelector;
  std::vector<std::string> matchLabelKeys;
  std::optional<NetworkTopologySpec> networkTopology;
  friend bool operator==(const SubGroupPolicy&, const SubGroupPolicy&) = default;
};

struct PodGroupCondition {
  std::string type;    // Scheduled | Unschedulable | ...
  std::string status;  // True | False
  std::string reason;
  std::string message;
  TimeMs lastTransitionTime = 0;
  friend bool operator==(const PodGroupCondition&, const PodGroupCondition&) = default;
};

/// scheduling.volcano.sh/v1beta1 PodGroup.
struct PodGroup {
  ObjectMeta metadata;
  struct Spec {
    int32_t minMember = 0;
    std::map<std::string, int32_t> minTaskMember;
    bool minTaskMemberSet = false;  // distinguishes a nil map from an empty one
    std::string queue;
    std::string priorityClassName;
    std::optional<ResourceList> minResources;
    std::optional<NetworkTopologySpec> networkTopology;
    std::vector<SubGroupPolicy> subGroupPolicy;
    /// Gang timeout in seconds (scheduler-plugins semantics, set by the coscheduling plugin).
    std::optional<int32_t> scheduleTimeoutSeconds;
    friend bool operator==(const Spec&, const Spec&) = default;
  } spec;
  struct Status {
    std::string phase;  // "" | Pending | Inqueue | Running | Unknown | Completed
    std::vector<PodGroupCondition> conditions;
    int32_t running = 0;
    int32_t succeeded = 0;
    int32_t failed = 0;
    friend bool operator==(const Status&, const Status&) = default;
  } status;
  friend bool operator==(const PodGroup&, const PodGroup&) = default;
};

struct ConfigMap {
  ObjectMeta metadata;
  std::map<std::string, std::string> data;
  friend bool operator==(const ConfigMap&, const ConfigMap&) = default;
};

/// A Secret. `data` holds the raw bytes; serialisers base64-encode them. Secret material is never
/// logged by the host.
struct Secret {
  ObjectMeta metadata;
  std::string type;  // e.g. Opaque, kubernetes.io/ssh-auth
  std::map<std::string, std::string> data;
  std::optional<bool> immutable;
  friend bool operator==(const Secret&, const Secret&) = default;
};

struct ServicePort {
  std::string name;
  std::string protocol;
  int32_t port = 0;
  std::string targetPort;  // number or name, as text
  friend bool operator==(const ServicePort&, const ServicePort&) = default;
};

struct Service {
  ObjectMeta metadata;
  struct Spec {
    std::string type;
    std::string clusterIP;
    StringMap selector;
    std::vector<ServicePort> ports;
    bool publishNotReadyAddresses = false;
    friend bool operator==(const Spec&, const Spec&) = default;
  } spec;
  friend bool operator==(const Service&, const Service&) = default;
};

struct NetworkPolicyPeer {
  std::optional<LabelSelector> podSelector;
  std::optional<LabelSelector> namespaceSelector;
  friend bool operator==(const NetworkPolicyPeer&, const NetworkPolicyPeer&) = default;
};

struct NetworkPolicyIngressRule {
  std::vector<NetworkPolicyPeer> from;
  friend bool operator==(const NetworkPolicyIngressRule&, const NetworkPolicyIngressRule&) = default;
};

struct NetworkPolicy {
  ObjectMeta metadata;
  struct Spec {
    LabelSelector podSelector;
    std::vector<NetworkPolicyIngressRule> ingress;
    std::vector<std::string> policyTypes;
    friend bool operator==(const Spec&, const Spec&) = default;
  } spec;
  friend bool operator==(const NetworkPolicy&, const NetworkPolicy&) = default;
};

/// What ComponentBuild plugins return and what JobHooks create through ResourceClient.
struct Components {
  std::vector<ConfigMap> configMaps;
  std::vector<Secret> secrets;
  std::vector<Service> services;
  std::vector<NetworkPolicy> networkPolicies;

  bool empty() const {
    return configMaps.empty() && secrets.empty() && services.empty() && networkPolicies.empty();
  }
  friend bool operator==(const Components&, const Components&) = default;
};

}  // namespace jobhost
