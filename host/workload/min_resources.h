// PodGroup minResources (spec §6.3): the quota usage of the first job.minAvailable pods, taken from
// the tasks in descending PriorityClass order.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "jobhost/job.h"
#include "jobhost/quantity.h"

namespace jobhost {

/// PriorityClass name -> value (HostConfig::priorityClasses). A missing name counts as 0.
using PriorityClassValues = std::map<std::string, int32_t>;

/// Volcano's calcPGMinResources. Each task's priority is the value of its template's
/// priorityClassName (the job's priorityClassName is not consulted). Tasks are ordered by
/// descending priority; Go uses the unstable sort.Sort, jobhost a stable sort, so tasks of equal
/// priority keep their spec order. Then, with totalMinAvailable = Σ(task.minAvailable ?? replicas):
///  - job.minAvailable < totalMinAvailable: take min(remaining, replicas) pods of each task in that
///    order until job.minAvailable pods are counted (CalcFirstCountResources);
///  - otherwise: first min(task.minAvailable, remaining) pods of each task that sets minAvailable,
///    then the tasks' spare pods (replicas - minAvailable, or replicas when unset) until
///    job.minAvailable pods are counted (CalcPGMinResources).
/// Each pod counts its podQuotaUsage (resources.h) of the task template; a task that contributes
/// zero pods adds no keys. Pure; any thread.
ResourceList calcPGMinResources(const Job& job, const PriorityClassValues& priorityClasses);

}  // namespace jobhost
