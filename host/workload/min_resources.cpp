// calcPGMinResources with Volcano's two paths (first-count and min-then-spare) over tasks sorted by
// descending priority with Go's sort.Sort, which is not stable: ties end where Go leaves them.
#include "host/workload/min_resources.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "host/workload/go_sort.h"
#include "host/workload/resources.h"

namespace jobhost {
namespace {

struct RankedTask {
  int32_t priority;
  const TaskSpec* task;
};

// quotav1.Add of `count` copies of the task's per-pod usage; count <= 0 adds nothing.
void addPods(ResourceList& into, const TaskSpec& task, int32_t count) {
  if (count <= 0) return;
  for (const auto& [name, q] : podQuotaUsage(task.template_.spec)) {
    Quantity total = q.multipliedBy(count);
    auto it = into.find(name);
    if (it == into.end())
      into.emplace(name, total);
    else
      it->second += total;
  }
}

ResourceList firstCount(const std::vector<RankedTask>& tasks, int32_t count) {
  ResourceList req;
  for (const auto& t : tasks) {
    if (count <= t.task->replicas) {
      addPods(req, *t.task, count);
      break;
    }
    addPods(req, *t.task, t.task->replicas);
    count -= t.task->replicas;
  }
  return req;
}

ResourceList minThenSpare(const std::vector<RankedTask>& tasks, int32_t jobMinAvailable) {
  ResourceList req;
  int32_t podCount = 0;
  for (const auto& t : tasks) {
    if (!t.task->minAvailable) continue;
    const int32_t take = std::min(*t.task->minAvailable, jobMinAvailable - podCount);
    addPods(req, *t.task, take);
    podCount += take;
    if (podCount >= jobMinAvailable) break;
  }
  if (podCount >= jobMinAvailable) return req;

  int32_t missing = jobMinAvailable - podCount;
  for (const auto& t : tasks) {
    int32_t spare = t.task->replicas;
    if (t.task->minAvailable) {
      if (*t.task->minAvailable == t.task->replicas) continue;
      spare = t.task->replicas - *t.task->minAvailable;
    }
    if (missing >= spare) {
      addPods(req, *t.task, spare);
      missing -= spare;
    } else {
      addPods(req, *t.task, missing);
      missing = 0;
    }
    if (missing <= 0) break;
  }
  return req;
}

}  // namespace

ResourceList calcPGMinResources(const Job& job, const PriorityClassValues& priorityClasses) {
  std::vector<RankedTask> tasks;
  tasks.reserve(job.spec.tasks.size());
  int64_t totalMinAvailable = 0;  // int64: no overflow on absurd specs
  for (const auto& task : job.spec.tasks) {
    int32_t priority = 0;
    if (!task.template_.spec.priorityClassName.empty()) {
      auto it = priorityClasses.find(task.template_.spec.priorityClassName);
      if (it != priorityClasses.end()) priority = it->second;
    }
    tasks.push_back({priority, &task});
    totalMinAvailable += task.minAvailable.value_or(task.replicas);
  }
  goSort(static_cast<int>(tasks.size()), [&](int i, int j) { return tasks[i].priority > tasks[j].priority; },
         [&](int i, int j) { std::swap(tasks[i], tasks[j]); });
  if (job.spec.minAvailable < totalMinAvailable) return firstCount(tasks, job.spec.minAvailable);
  return minThenSpare(tasks, job.spec.minAvailable);
}

}  // namespace jobhost
