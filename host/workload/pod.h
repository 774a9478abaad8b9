// Pod construction for one replica of a task: Volcano's createJobPod (spec §6.1), fed by the
// pipeline's pod set and scheduler info when the host has them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "jobhost/job.h"
#include "jobhost/pod.h"
#include "jobhost/runtime_info.h"

namespace jobhost {

/// One pod to build: `<job>-<tasks[taskIndex].name>-<podIndex>`.
struct PodSlot {
  size_t taskIndex = 0;
  int32_t podIndex = 0;
};

/// Builds pod `<job>-<task>-<index>` of `task` (which must be one of job.spec.tasks), as Volcano's
/// createJobPod does:
///  - metadata: name, job namespace, the job controller owner reference (names.h); labels and
///    annotations start from the template's, then the pod set's podLabels/podAnnotations, then the
///    scheduler info's, then Volcano's keys below (so Volcano's keys always win);
///  - spec: the template's spec, with initContainers/containers/volumes taken from `podSet` when
///    given (the pipeline's version of the template); schedulerName and priorityClassName default to
///    the job's; each job volume (deduplicated by claim name; a repeated claim is skipped entirely)
///    becomes a PVC volume named jobVolumeName() mounted at its mountPath in every container (not in
///    init containers);
///  - annotations: task-index, task-spec (task name, "default" if empty), group-name
///    (`<job>-<uid>`), job-name, queue-name, job-version (status.version), template-uid
///    (`<job>-<task>`), job-retry-count (status.retryCount), numa-topology-policy (if the task sets
///    topologyPolicy), preemptable / cooldown-time / revocable-zone copied from the job's
///    annotations, jdb-min-available else jdb-max-unavailable from the job's annotations,
///    job-forwarding=true when `jobForwarding`;
///  - labels: task-index, job-name, task-spec, job-namespace, queue-name, preemptable and
///    cooldown-time copied from the job's labels, job-forwarding=true when `jobForwarding`, and
///    partition-id = index / partitionSize (0 when partitionSize <= 0) when the task has a
///    partitionPolicy.
/// The status is left default (Pending). Pure; any thread; runs once per created pod.
/// buildPod is setPodIndex(podTemplate(...), index).
Pod buildPod(const Job& job, const TaskSpec& task, int32_t index, const PodSet* podSet = nullptr,
             const SchedulerInfo* scheduler = nullptr, bool jobForwarding = false);

/// What buildPod makes for every replica of `task` alike: the pod without a name, with the
/// task-index label and annotation set to "0" and no partition-id label. Copy it once per replica
/// and pass the copy to setPodIndex. Pure; any thread.
Pod podTemplate(const Job& job, const TaskSpec& task, const PodSet* podSet = nullptr,
                const SchedulerInfo* scheduler = nullptr, bool jobForwarding = false);
/// Makes a copy of podTemplate(job, task, ...) replica `index`: its name, the task-index label and
/// annotation, and the partition-id label when the task has a partitionPolicy.
void setPodIndex(Pod& pod, const Job& job, const TaskSpec& task, int32_t index);

/// buildPod of every slot, in order, with task i's pod set `info->podSets[i]` (when `info` has
/// one) and `info->scheduler`: one podTemplate per run of slots of the same task, copied per
/// replica, marked for forwarding when `jobForwarding`. Fails (nullopt) when a slot's task index is
/// out of range.
std::optional<std::vector<Pod>> buildPods(const Job& job, const std::vector<PodSlot>& slots,
                                          const RuntimeInfo* info = nullptr, bool jobForwarding = false);

}  // namespace jobhost
