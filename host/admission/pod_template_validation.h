// Kubernetes ValidatePodTemplate, as Volcano's webhook runs it on each task's template (after
// Kubernetes defaulting), restricted to the fields jobhost models.
#pragma once

#include <string_view>

#include "host/admission/field_errors.h"
#include "jobhost/pod.h"

namespace jobhost::k8s {

/// Validates a PodTemplate named `name` (the task name) in namespace `ns` whose template is `tpl`,
/// returning Kubernetes' field errors in Kubernetes' order with Kubernetes' paths ("metadata.name",
/// "template.spec.containers[0].image", ...). Covered: PodTemplate name (DNS subdomain) and
/// namespace (DNS label; an empty namespace is taken as defaulted and not reported); template label
/// keys/values and annotation keys; volumes (name DNS-1123 label, unique, exactly one source,
/// configMap/secret/PVC required names, file modes, item paths, emptyDir sizeLimit >= 0); containers
/// and init containers (container_validation.h); pod-level resources (template.spec.resources,
/// resource_validation.h); hostNetwork hostPort == containerPort;
/// restartPolicy Always|OnFailure|Never; dnsPolicy and the dnsConfig it needs; hostname and
/// subdomain DNS-1123 labels; priorityClassName DNS subdomain. Kubernetes defaults are assumed for
/// empty fields (restartPolicy Always, dnsPolicy ClusterFirst, port protocol TCP, ...).
FieldErrs validatePodTemplate(const PodTemplateSpec& tpl, std::string_view name, std::string_view ns);

/// ValidateObjectMeta's name rule with NameIsDNSSubdomain, at metadata.name: Required ("name or
/// generateName is required") when empty, else the DNS-1123 subdomain errors.
void validateObjectName(FieldErrs& out, std::string_view name);

}  // namespace jobhost::k8s
