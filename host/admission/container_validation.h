// Kubernetes container validation (pkg/apis/core/validation validateContainers and
// validateInitContainers): names, image, ports, env, volume mounts, resources, host ports.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "host/admission/field_errors.h"
#include "jobhost/pod.h"

namespace jobhost::k8s {

/// What container validation needs from the pod: the names of volumes that validated, and
/// hostNetwork (which defaults each hostPort to its containerPort).
struct PodContext {
  std::set<std::string, std::less<>> volumes;
  bool hostNetwork = false;
};

/// Regular containers at `path` ("template.spec.containers"); appends errors in Kubernetes' order.
void validateContainers(const std::vector<Container>& containers, const PodContext& pod, std::string_view path,
                        FieldErrs& out);

/// Init containers at `path`; names must also differ from the regular containers'.
void validateInitContainers(const std::vector<Container>& init, const std::vector<Container>& regular,
                            const PodContext& pod, std::string_view path, FieldErrs& out);

/// True when an unmodelled field `key` is present (probes, lifecycle, dnsConfig, ...).
bool hasUnknownField(const UnknownFields& unknown, std::string_view key);

/// validateLocalDescendingPath: relative, no ".." element.
void validateLocalDescendingPath(std::string_view target, const std::string& field, FieldErrs& out);

}  // namespace jobhost::k8s
