// Internal to admission: the webhook rules that need more than a line (mpi master, partitions,
// topology CPU, job volumes, queues, dependsOn DAG), each returning Volcano's message piece.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "host/admission/findings.h"
#include "host/config/config.h"
#include "jobhost/job.h"

namespace jobhost {

inline constexpr std::string_view kTiersConflict =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously";

/// Both highestTierAllowed and highestTierName set.
bool tiersConflict(const std::optional<NetworkTopologySpec>& topology);

/// "The specified mpi master task was not found" when spec.plugins has mpi and its --master task
/// (default "master", parsed with Go flag rules) is not a task of the job.
std::optional<WebhookError> mpiMasterError(const Job& job);

/// The first failing partitionPolicy rule of task `i` (no leading space, no ';').
std::optional<WebhookError> partitionPolicyError(const Job& job, size_t i);

/// For a task with a topologyPolicy other than none: the first container (containers, then init
/// containers, numbered together) whose CPU request (its limits when it has no requests) is not a
/// whole number of CPUs, zero included.
std::optional<WebhookError> topologyCpuError(const TaskSpec& task, size_t i);

/// validateIO: the first error of the job volumes.
std::optional<WebhookError> volumesError(const std::vector<JobVolume>& volumes);

/// The queue checks: missing; not Open; root; not a leaf.
std::vector<WebhookError> queueErrors(const Job& job, const std::vector<QueueConfig>& queues);

/// When a task has dependsOn: Volcano's topological sort must place every task (a dependency on a
/// task that does not exist, a repeated dependency or a cycle all fail it).
std::optional<WebhookError> dependencyError(const Job& job);

}  // namespace jobhost
