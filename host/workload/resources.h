// What one pod asks for: Kubernetes' PodRequests / PodLimits (containers summed, max with each init
// container, restartable init containers counted as sidecars) and the pod's quota usage.
#pragma once

#include "jobhost/pod.h"
#include "jobhost/quantity.h"

namespace jobhost {

/// How a container with a limit but no request for a resource is counted.
enum class LimitDefaulting {
  /// As the API server stores a Pod (SetDefaults_Pod): the request defaults to the limit. Use this
  /// for pods that exist or are about to be created (scheduling, the sim backend, pod sets).
  Apply,
  /// Requests as written. The API server does not default pod templates, and Volcano computes
  /// PodGroup minResources from the Job's template, so calcPGMinResources uses this.
  Skip,
};

/// The pod's spec.overhead (set by RuntimeClass admission; unmodelled, kept in PodSpec::unknown as
/// JSON). Entries that are not quantities are left out: admission refuses them. Pure; any thread.
ResourceList podOverhead(const PodSpec& spec);

/// k8s.io/component-helpers resource.AggregateContainerRequests: the sum over containers, then per
/// resource the max with each init container's need, where restartable init containers
/// (restartPolicy: Always, kept in Container::unknown) run alongside and add up. Pure; any thread.
ResourceList aggregateContainerRequests(const PodSpec& spec, LimitDefaulting defaulting = LimitDefaulting::Apply);

/// Effective requests of one pod (resource.PodRequests): aggregateContainerRequests plus the
/// overhead, whose resources are added (inserted where the containers request none). Pod-level
/// resources (template.spec.resources) are not counted.
ResourceList podRequests(const PodSpec& spec, LimitDefaulting defaulting = LimitDefaulting::Apply);

/// Effective limits of one pod (resource.PodLimits): the same aggregation of limits, plus the
/// overhead on each resource that has a limit.
ResourceList podLimits(const PodSpec& spec);

/// Kubernetes' quota usage of one non-terminal pod (quota/v1/evaluator/core PodUsageFunc) as Volcano
/// reads it (pkg/controllers/util GetPodQuotaUsage), from podRequests (requests as written: template
/// semantics) and podLimits, so the overhead counts:
///   count/pods=1, pods=1;
///   cpu and requests.cpu, memory and requests.memory, ephemeral-storage and
///   requests.ephemeral-storage, each when requested;
///   limits.cpu, limits.memory, limits.ephemeral-storage, each when limited;
///   hugepages-X and requests.hugepages-X when requested;
///   requests.X for each requested extended resource X, mirrored by Volcano to plain X.
ResourceList podQuotaUsage(const PodSpec& spec);

/// True for an init container with restartPolicy: Always (a sidecar).
bool isRestartableInitContainer(const Container& container);

}  // namespace jobhost
