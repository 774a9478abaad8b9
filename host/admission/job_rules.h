// Internal to admission: the webhook rules that need more than a line (mpi master, partitions,
// topology CPU, job volumes, queues, dependsOn DAG), each returning Volcano's message piece.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "host/admission/findings.h"
#include "host/config/config.h"
#include "jobhost/job.h"

namespace jobhost {

inline constexpr std::string_view kTiersConflict =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously";

/// a + b as Go adds int32 values: wrapping on overflow (Volcano sums replicas in an int32).
inline int32_t addInt32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

/// a * b as Go multiplies int32 values: wrapping on overflow.
inline int32_t mulInt32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

/// Both highestTierAllowed and highestTierName set.
bool tiersConflict(const std::optional<NetworkTopologySpec>& topology);

/// "The specified mpi master task was not found" when spec.plugins has mpi and its --master task
/// (default "master") is not a task of the job. The args are the ones the mpi plugin gets
/// (`args`: config defaults, then the job's) parsed like Volcano's webhook does — Go flag rules,
/// ContinueOnError: the parse stops at the first flag it cannot take and the flags before it keep
/// their values — with the mpi plugin's flag set: Volcano's master, worker and port plus jobhost's
/// documented slots, so `--slots=4 --master=launcher` finds launcher.
std::optional<WebhookError> mpiMasterError(const Job& job, const std::vector<std::string>& args);

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

/// Volcano's topological sort over every task must place every task (a dependency on a task that
/// does not exist, a repeated dependency, a repeated task name or a cycle all fail it). The caller
/// runs it only when the webhook's task loop saw a task with dependsOn.
std::optional<WebhookError> dependencyError(const Job& job);

}  // namespace jobhost
