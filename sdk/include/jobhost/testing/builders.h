// Builders for unit tests that call a plugin's points directly: containers, tasks, jobs, the
// pipeline's starting RuntimeInfo, and pods as Volcano's createJobPod names and labels them (§6.1).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "jobhost/testing/export.h"
#include "jobhost/job.h"
#include "jobhost/runtime_info.h"

namespace jobhost::testing {

JOBHOST_TESTING_API Container container(std::string name, std::vector<EnvVar> env = {});
/// A task of `replicas` pods whose template has `containers` (default: one container "main").
JOBHOST_TESTING_API TaskSpec task(std::string name, int32_t replicas, std::vector<Container> containers = {container("main")});
/// Job `name` in namespace "team-a" with UID "uid-1", its tasks and spec.plugins.
JOBHOST_TESTING_API Job job(std::string name, std::vector<TaskSpec> tasks, std::map<std::string, std::vector<std::string>> plugins);

/// The pipeline's starting RuntimeInfo: one pod set per task, in task order.
JOBHOST_TESTING_API RuntimeInfo runtimeInfo(const Job& job);
/// Pod `<job>-<task>-<index>` from the task template, with the task-spec, task-index and job-name
/// annotations and labels.
JOBHOST_TESTING_API Pod pod(const Job& job, const std::string& task, int32_t index);
/// The same pod with containers, init containers and volumes taken from a pipeline pod set.
JOBHOST_TESTING_API Pod pod(const Job& job, const PodSet& set, int32_t index);

}  // namespace jobhost::testing
