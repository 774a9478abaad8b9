// Kubernetes' resource-requirement rules (validateResourceRequirements), shared by containers, by
// pod-level resources (template.spec.resources, PodLevelResources, on by default) and overhead.
#pragma once

#include <string>

#include "host/admission/field_errors.h"
#include "jobhost/pod.h"

namespace jobhost::k8s {

/// Appends Kubernetes' errors for one resource name at `path`.
using ResourceNameCheck = void (*)(const std::string& name, const std::string& path, FieldErrs& out);

/// validateContainerResourceName: a qualified name, a standard resource type or fully qualified,
/// a standard container resource (cpu, memory, ephemeral-storage, hugepages-*) or an extended one.
void validateContainerResourceName(const std::string& name, const std::string& path, FieldErrs& out);

/// validatePodResourceName: the same name rules, stopping at the first failure; then only cpu,
/// memory and hugepages-* are supported at pod level.
void validatePodResourceName(const std::string& name, const std::string& path, FieldErrs& out);

/// validateResourceRequirements at `path` (".../resources"): limits then requests, each in name
/// order: the name, quantity >= 0, integers for integer resources, hugepages a whole multiple of
/// the page size; a request above its limit (or unequal, for resources that cannot overcommit), a
/// request without a limit for those; hugepages need cpu or memory.
void validateResourceRequirements(const ResourceRequirements& r, ResourceNameCheck checkName, const std::string& path,
                                  FieldErrs& out);

/// validatePodResources for a template's pod-level resources, kept as the unmodelled `resources`
/// of `spec` (compact JSON). Nothing when absent or null. Else, at `path`
/// ("template.spec.resources"): claims are forbidden (and checked against spec.resourceClaims),
/// the requirement rules with pod resource names, then validatePodResourceConsistency: each
/// aggregate container request (component-helpers AggregateContainerRequests: containers and
/// sidecars summed, max with each init container) at most the pod request (a missing one is 0),
/// and each regular container's limit at most the pod limit of the same resource.
void validatePodResources(const PodSpec& spec, const std::string& path, FieldErrs& out);

/// validateOverhead for a template's spec.overhead (unmodelled, kept as JSON): the requirement
/// rules with container resource names, the overhead taken as limits, at `path`
/// ("template.spec.overhead", so errors name "template.spec.overhead.limits[cpu]" as Kubernetes').
void validateOverhead(const PodSpec& spec, const std::string& path, FieldErrs& out);

}  // namespace jobhost::k8s
