// Resource-name classification with Kubernetes' rules; used by quota usage (workload) and by
// container resource validation (admission).
#include "host/workload/resource_names.h"

#include <array>
#include <string>

#include "host/workload/k8s_names.h"

namespace jobhost::k8s {
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

template <size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view name) {
  for (auto s : set)
    if (s == name) return true;
  return false;
}

constexpr std::array<std::string_view, 20> kStandardResources = {
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
    "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
    "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
    "services.loadbalancers"};

constexpr std::array<std::string_view, 9> kIntegerResources = {
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"};

}  // namespace

bool isNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos || name.find("kubernetes.io/") != std::string_view::npos;
}

bool isHugePageResourceName(std::string_view name) { return startsWith(name, kHugePagesPrefix); }

bool isExtendedResourceName(std::string_view name) {
  if (isNativeResource(name) || startsWith(name, kRequestsPrefix)) return false;
  std::string quotaName(kRequestsPrefix);
  quotaName += name;
  return isQualifiedName(quotaName).empty();
}

bool isOvercommitAllowed(std::string_view name) { return isNativeResource(name) && !isHugePageResourceName(name); }

bool isStandardContainerResourceName(std::string_view name) {
  return name == "cpu" || name == "memory" || name == "ephemeral-storage" || isHugePageResourceName(name);
}

bool isStandardResourceName(std::string_view name) {
  return contains(kStandardResources, name) || isHugePageResourceName(name) ||
         startsWith(name, "requests.hugepages-");
}

bool isIntegerResourceName(std::string_view name) {
  return contains(kIntegerResources, name) || isExtendedResourceName(name);
}

}  // namespace jobhost::k8s
