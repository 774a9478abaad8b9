// PodGroup status conditions as both gang schedulers (sim and local) report them: Scheduled once a
// gang is placed, Unschedulable/NotEnoughResources while it waits, Unschedulable/ScheduleTimeout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jobhost/objects.h"

namespace jobhost {

/// Sets the one scheduling condition (Scheduled or Unschedulable) to `type`/`reason`/`message`,
/// stamped `now`. Returns false when it already read so (nothing changed).
bool setSchedulingCondition(std::vector<PodGroupCondition>& conditions, const std::string& type,
                            const std::string& reason, const std::string& message, TimeMs now);

/// Condition Scheduled (the gang's minMember pods are placed).
bool reportScheduled(std::vector<PodGroupCondition>& conditions, TimeMs now);

/// Unschedulable/NotEnoughResources, unless a ScheduleTimeout report stands (it stays until the
/// gang is placed).
bool reportNotEnoughResources(std::vector<PodGroupCondition>& conditions, const std::string& message, TimeMs now);

/// reportNotEnoughResources for a gang short of minMember, worded as Volcano's gang plugin does:
/// "<minMember - ready>/<pods of the gang> tasks in gang unschedulable: <why>".
bool reportGangShort(std::vector<PodGroupCondition>& conditions, int32_t minMember, int32_t ready, size_t pods,
                     const std::string& why, TimeMs now);

/// Unschedulable/NotEnoughTasks, as Volcano's gang plugin reports a gang with fewer valid (not
/// failed) pods than minMember: "Not enough valid tasks for gang-scheduling, valid: <v>, min: <m>".
/// Like NotEnoughResources it leaves a ScheduleTimeout report standing.
bool reportNotEnoughTasks(std::vector<PodGroupCondition>& conditions, int32_t valid, int32_t minMember, TimeMs now);

/// Unschedulable/ScheduleTimeout: "gang of <minMember> not placed within scheduleTimeoutSeconds
/// <timeout> (<started> started)".
bool reportScheduleTimeout(std::vector<PodGroupCondition>& conditions, int32_t minMember, int32_t timeoutSeconds,
                           int32_t started, TimeMs now);

/// What keeps a gang waiting, as Volcano's PodGroupPending warning reads it (spec §6.2): the latest
/// True condition, unless it is Scheduled; nullptr when there is none.
const PodGroupCondition* pendingCondition(const PodGroup& pg);

}  // namespace jobhost
