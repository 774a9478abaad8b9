// NoPluginJobPlugins: a thin adapter over host/workload's buildPod and buildPodGroup.
#include "host/controller/no_plugin_job_plugins.h"

#include "host/workload/pod.h"
#include "host/workload/pod_group.h"

namespace jobhost {

Status NoPluginJobPlugins::prepare(const Job&) { return Status::ok(); }
void NoPluginJobPlugins::forget(const std::string&) {}

Expected<Pod> NoPluginJobPlugins::makePod(const Job& job, size_t taskIndex, int32_t podIndex) {
  if (taskIndex >= job.spec.tasks.size()) return Expected<Pod>::failure("task index out of range");
  return buildPod(job, job.spec.tasks[taskIndex], podIndex);
}

Expected<PodGroup> NoPluginJobPlugins::makePodGroup(const Job& job) { return buildPodGroup(job, priorityClasses_); }

Status NoPluginJobPlugins::onJobAdd(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobUpdate(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobDelete(Job&, ResourceClient&) { return Status::ok(); }
void NoPluginJobPlugins::updateStatus(const Job&, JobStatus&) {}

}  // namespace jobhost
