// The job's PodGroup (spec §6.2): how Volcano creates it, each task's minTaskMember, and the
// "update only when one of these differs" rule for an existing PodGroup.
#pragma once

#include <cstdint>

#include "host/workload/min_resources.h"
#include "jobhost/job.h"
#include "jobhost/objects.h"

namespace jobhost {

/// Volcano's getMinTaskMember: task.minAvailable if set, else minPartitions*partitionSize when the
/// task has a partitionPolicy with both non-zero, else replicas.
int32_t minTaskMember(const TaskSpec& task);

/// The PodGroup Volcano creates for `job`: name `<job>-<uid>`, the job's namespace, labels and
/// annotations copied from the job, the job controller owner reference; spec minMember =
/// job.minAvailable, minTaskMember for every task (minTaskMemberSet = true), queue, minResources =
/// calcPGMinResources, priorityClassName = the job's, networkTopology (mode, plus highestTierAllowed
/// if set, else highestTierName), and one subGroupPolicy per task with a partitionPolicy, in task
/// order: {name: task, subGroupSize: partitionSize, minSubGroups: minPartitions, labelSelector
/// {volcano.sh/task-spec: task}, matchLabelKeys [volcano.sh/partition-id], the partition's
/// networkTopology}. Status is empty. Pure; any thread.
PodGroup buildPodGroup(const Job& job, const PriorityClassValues& priorityClasses);

/// Applies Volcano's shouldUpdateExistingPodGroup to `existing`, given the PodGroup the job wants
/// now (`desired`, from buildPodGroup): priorityClassName; minMember and minResources together;
/// minTaskMember entries that are missing or different (a nil map counts as different; entries of
/// tasks that no longer exist are kept); subGroupPolicy replaced by desired's when a partitioned
/// task's policy is missing or different, or a task without partitionPolicy still has one (a
/// policy left for a task that no longer exists is not noticed, as in Volcano). Everything else
/// (metadata, queue, networkTopology, status) is left alone. Returns true when anything changed, i.e.
/// when Volcano would write the PodGroup.
bool updatePodGroup(PodGroup& existing, const PodGroup& desired);

/// Whether updatePodGroup would change `existing` (Volcano's "update only when one of these differs").
bool podGroupNeedsUpdate(const PodGroup& existing, const PodGroup& desired);

}  // namespace jobhost
