// Volcano's dependsOn rule (spec §6.4), shared by the controller (whether to create a task's pods)
// and `jobhost run`'s progress (why it waits); `readyPods(taskIndex)` counts a task's ready pods.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "jobhost/job.h"

namespace jobhost {

/// A dependency is ready when its task's ready pods reach the task's minAvailable (nil: always);
/// a name that is no task of the job is never ready.
template <class ReadyPods>
bool dependencyReady(const JobSpec& spec, const std::string& dependency, const ReadyPods& readyPods) {
  for (size_t i = 0; i < spec.tasks.size(); ++i)
    if (spec.tasks[i].name == dependency)
      return !spec.tasks[i].minAvailable || readyPods(i) >= *spec.tasks[i].minAvailable;
  return false;
}

/// True when `iteration: any` applies: more than one dependency and iteration "any".
inline bool anyDependencySuffices(const DependsOn& dependsOn) {
  return dependsOn.name.size() > 1 && dependsOn.iteration == "any";
}

/// Whether a task with `dependsOn` may have its pods created: any ready dependency with
/// `iteration: any` and more than one name, else all of them.
template <class ReadyPods>
bool dependsOnMet(const JobSpec& spec, const DependsOn& dependsOn, const ReadyPods& readyPods) {
  auto ready = [&](const std::string& dep) { return dependencyReady(spec, dep, readyPods); };
  if (anyDependencySuffices(dependsOn)) return std::any_of(dependsOn.name.begin(), dependsOn.name.end(), ready);
  return std::all_of(dependsOn.name.begin(), dependsOn.name.end(), ready);
}

}  // namespace jobhost
