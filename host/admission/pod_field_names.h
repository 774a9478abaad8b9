// Field names Kubernetes declares in the pod template structs jobhost keeps unknown keys for, as the
// Job CRD's schema has them (the union over Kubernetes 1.27-1.35, so that no real field is refused).
#pragma once

#include <string_view>

namespace jobhost {

enum class PodStruct { PodSpec, Container, Volume, VolumeMount, ResourceRequirements };

/// True when `key` is a field of `kind` in Kubernetes' API (jobhost may not model it).
bool declaredByKubernetes(PodStruct kind, std::string_view key);

}  // namespace jobhost
