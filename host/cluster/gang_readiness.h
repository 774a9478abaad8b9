// Volcano's per-task gang check (JobInfo.CheckTaskReady), shared by the sim and local gang
// schedulers: when minMember covers the sum of minTaskMember, each task needs its own minimum.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/pod.h"

namespace jobhost {

/// The pod's task as the scheduler keys it (getTaskID): its volcano.sh/task-spec annotation, or "".
std::string_view taskOfPod(const Pod& pod);

/// A task with fewer occupied (bound or succeeded) pods than its minTaskMember.
struct TaskShortfall {
  std::string task;
  int32_t min = 0;
  int32_t have = 0;
  /// "task <task> needs <min> pods, only <have> fit"
  std::string describe() const;
};

/// The first task (by name) short of its minimum, given the task of every occupied pod; nullopt
/// when all are ready or the check does not apply (no minTaskMember, or minMember below their sum).
std::optional<TaskShortfall> taskShortOfMinimum(int32_t minMember, const std::map<std::string, int32_t>& minTaskMember,
                                                const std::vector<std::string_view>& occupiedTasks);

}  // namespace jobhost
