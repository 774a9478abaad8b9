// The PodGroup scheduling conditions shared by the sim and local gang schedulers
// (see podgroup_conditions.h).
#include "host/cluster/podgroup_conditions.h"

#include <algorithm>

namespace jobhost {

bool setSchedulingCondition(std::vector<PodGroupCondition>& cs, const std::string& type, const std::string& reason,
                            const std::string& message, TimeMs now) {
  auto it = std::find_if(cs.begin(), cs.end(), [&](const PodGroupCondition& c) { return c.type == type; });
  if (it != cs.end() && it->status == "True" && it->reason == reason && it->message == message) return false;
  std::erase_if(cs, [](const PodGroupCondition& c) { return c.type == "Scheduled" || c.type == "Unschedulable"; });
  cs.push_back(PodGroupCondition{type, "True", reason, message, now});
  return true;
}

bool reportScheduled(std::vector<PodGroupCondition>& cs, TimeMs now) {
  return setSchedulingCondition(cs, "Scheduled", "tasks in gang are ready to be scheduled", "", now);
}

namespace {

bool timedOut(const std::vector<PodGroupCondition>& cs) {
  return std::any_of(cs.begin(), cs.end(),
                     [](const PodGroupCondition& c) { return c.type == "Unschedulable" && c.reason == "ScheduleTimeout"; });
}

}  // namespace

bool reportNotEnoughResources(std::vector<PodGroupCondition>& cs, const std::string& message, TimeMs now) {
  return !timedOut(cs) && setSchedulingCondition(cs, "Unschedulable", "NotEnoughResources", message, now);
}

bool reportNotEnoughTasks(std::vector<PodGroupCondition>& cs, int32_t valid, int32_t minMember, TimeMs now) {
  return !timedOut(cs) && setSchedulingCondition(cs, "Unschedulable", "NotEnoughTasks",
                                                 "Not enough valid tasks for gang-scheduling, valid: " +
                                                     std::to_string(valid) + ", min: " + std::to_string(minMember),
                                                 now);
}

bool reportGangShort(std::vector<PodGroupCondition>& cs, int32_t minMember, int32_t ready, size_t pods,
                     const std::string& why, TimeMs now) {
  return reportNotEnoughResources(
      cs, std::to_string(minMember - ready) + "/" + std::to_string(pods) + " tasks in gang unschedulable: " + why, now);
}

bool reportScheduleTimeout(std::vector<PodGroupCondition>& cs, int32_t minMember, int32_t timeoutSeconds,
                           int32_t started, TimeMs now) {
  return setSchedulingCondition(cs, "Unschedulable", "ScheduleTimeout",
                                "gang of " + std::to_string(minMember) + " not placed within scheduleTimeoutSeconds " +
                                    std::to_string(timeoutSeconds) + " (" + std::to_string(started) + " started)",
                                now);
}

const PodGroupCondition* pendingCondition(const PodGroup& pg) {
  const PodGroupCondition* latest = nullptr;
  for (const auto& c : pg.status.conditions)
    if (c.status == "True" && (!latest || c.lastTransitionTime > latest->lastTransitionTime)) latest = &c;
  return latest && latest->type != "Scheduled" ? latest : nullptr;
}

}  // namespace jobhost
