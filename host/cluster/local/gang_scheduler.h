// The local gang scheduler, with the sim's phase rules: admits PodGroups into the machine's
// capacity (Pending -> Inqueue), starts a gang's pods only when minMember of them (and each task's
// minTaskMember, when minMember covers their sum) can run (Running),
// marks a gang that falls below minMember Unknown (some run) or Pending, and reports gangs that
// cannot be placed (condition Unschedulable; reason ScheduleTimeout after scheduleTimeoutSeconds).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/cluster/local/capacity.h"
#include "jobhost/objects.h"

namespace jobhost::local {

/// Scheduling state of one PodGroup. `phase` and `conditions` are the PodGroup's status.
struct GangGroup {
  std::string key;  // "<ns>/<name>"
  uint64_t seq = 0;  // creation order: earlier groups are served first
  int32_t minMember = 0;
  std::map<std::string, int32_t> minTaskMember;
  Resources minResources;
  std::optional<int32_t> timeoutSeconds;
  TimeMs since = 0;  // when the group started waiting (its creation)
  std::string phase = "Pending";
  bool placed = false;  // minMember pods are started (or succeeded)
  std::vector<PodGroupCondition> conditions;
};

enum class PodSlot {
  Waiting,    // created, not started: needs a place
  Active,     // started and not finished: holds its demand
  Succeeded,  // finished with success: counts for its gang, holds nothing
  Finished,   // failed or gone: counts for nothing
};

struct GangPod {
  std::string key;    // "<ns>/<name>"
  std::string group;  // GangGroup::key, or "" for a pod outside any PodGroup
  std::string task;   // its volcano.sh/task-spec annotation, or ""
  uint64_t seq = 0;
  Resources demand;
  PodSlot slot = PodSlot::Waiting;
  bool deleting = false;  // deletion requested: holds its demand while Active, counts for nothing
};

struct GangPlan {
  std::vector<std::string> bind;           // pods to start now, in order
  std::vector<std::string> changedGroups;  // groups whose phase or conditions changed
  std::optional<TimeMs> nextDeadline;      // earliest scheduleTimeout still ahead
};

/// Copies what the scheduler reads from a PodGroup's spec into `group`.
void setGangSpec(GangGroup& group, const PodGroup::Spec& spec);

/// One scheduling pass over every group and pod. Updates `groups` in place. Pure.
GangPlan planGangs(const Resources& capacity, std::vector<GangGroup>& groups, const std::vector<GangPod>& pods,
                   TimeMs now);

}  // namespace jobhost::local
