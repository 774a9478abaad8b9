// Volcano's per-task gang check shared by the sim and local gang schedulers (see
// gang_readiness.h).
#include "host/cluster/gang_readiness.h"

#include <algorithm>

#include "jobhost/job.h"

namespace jobhost {
namespace {

const std::string kTaskSpecKey(keys::TaskSpec);

}  // namespace

std::string_view taskOfPod(const Pod& pod) {
  auto it = pod.metadata.annotations.find(kTaskSpecKey);
  return it == pod.metadata.annotations.end() ? std::string_view() : std::string_view(it->second);
}

std::string TaskShortfall::describe() const {
  return "task " + task + " needs " + std::to_string(min) + " pods, only " + std::to_string(have) + " fit";
}

std::optional<TaskShortfall> taskShortOfMinimum(int32_t minMember, const std::map<std::string, int32_t>& minTaskMember,
                                                const std::vector<std::string_view>& occupiedTasks) {
  int64_t total = 0;
  for (const auto& [task, min] : minTaskMember) total += min;
  if (minTaskMember.empty() || minMember < total) return std::nullopt;
  for (const auto& [task, min] : minTaskMember) {
    const auto have = static_cast<int32_t>(std::count(occupiedTasks.begin(), occupiedTasks.end(), std::string_view(task)));
    if (have < min) return TaskShortfall{task, min, have};
  }
  return std::nullopt;
}

}  // namespace jobhost
