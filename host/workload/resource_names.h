// Kubernetes resource-name classes (k8s.io/kubernetes pkg/apis/core/helper): native, extended,
// hugepages, standard and integer resources, and the "requests." quota prefix.
#pragma once

#include <string_view>

namespace jobhost::k8s {

inline constexpr std::string_view kRequestsPrefix = "requests.";
inline constexpr std::string_view kLimitsPrefix = "limits.";
inline constexpr std::string_view kHugePagesPrefix = "hugepages-";

/// No '/' in the name, or a name in the kubernetes.io/ namespace.
bool isNativeResource(std::string_view name);
/// hugepages-<size>.
bool isHugePageResourceName(std::string_view name);
/// Not native, not "requests."-prefixed, and "requests.<name>" is a qualified name (nvidia.com/gpu).
bool isExtendedResourceName(std::string_view name);
/// Requests may be below limits: native resources other than hugepages.
bool isOvercommitAllowed(std::string_view name);
/// cpu, memory, ephemeral-storage, hugepages-<size>.
bool isStandardContainerResourceName(std::string_view name);
/// The names helper.IsStandardResourceName accepts (container and quota resources).
bool isStandardResourceName(std::string_view name);
/// Resources whose quantities must be whole numbers (pods, services, ..., extended resources).
bool isIntegerResourceName(std::string_view name);

}  // namespace jobhost::k8s
