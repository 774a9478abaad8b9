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

/// Effective requests of one pod (k8s.io/component-helpers resource.PodRequests): the sum over
/// containers, then per resource the max with each init container's need, where restartable init
/// containers (restartPolicy: Always, kept in Container::unknown) run alongside and add up. Pod-level
/// resources and overhead are not modelled. Pure; any thread.
ResourceList podRequests(const PodSpec& spec, LimitDefaulting defaulting = LimitDefaulting::Apply);

/// Effective limits of one pod (resource.PodLimits), same aggregation as podRequests.
ResourceList podLimits(const PodSpec& spec);

/// Kubernetes' quota usage of one non-terminal pod (quota/v1/evaluator/core PodUsageFunc) as Volcano
/// reads it (pkg/controllers/util GetPodQuotaUsage), requests taken as written (template semantics):
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
