// Checks of the names a test hands the harness (pods of the job, command actions and tasks): a
// typo throws std::invalid_argument naming the bad value and listing the valid ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobhost/job.h"

namespace jobhost::testing {

/// "a, b, c" (or "none").
std::string listed(const std::vector<std::string>& names);

/// Throws unless `pod` is a pod name of `job` (`<job>-<task>-<index>`, index below the task's
/// replicas), whether or not that pod exists now. `call` names the harness call, e.g.
/// `scriptPod("x")`.
void checkPodOfJob(const Job& job, std::string_view pod, const std::string& call);

/// Throws unless `action` is one of jobhost::actions, `task` (when given) a task of `job` and
/// `pod` (when given) a pod name of `job`.
void checkCommand(const Job& job, std::string_view action, std::string_view task, std::string_view pod);

}  // namespace jobhost::testing
