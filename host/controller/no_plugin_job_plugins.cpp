// NoPluginJobPlugins: a thin adapter over host/workload's buildPod and buildPodGroup.
#include "host/controller/no_plugin_job_plugins.h"

#include "host/workload/pod.h"
#include "host/workload/pod_group.h"

namespace jobhost {

Status NoPluginJobPlugins::prepare(const Job&) { return Status::ok(); }
void NoPluginJobPlugins::forget(const std::string&) {}

Expected<std::vector<Pod>> NoPluginJobPlugins::makePods(const Job& job, const std::vector<PodSlot>& slots,
                                                        bool jobForwarding) {
  auto pods = buildPods(job, slots, nullptr, jobForwarding);
  if (!pods) return Expected<std::vector<Pod>>::failure("task index out of range");
  return std::move(*pods);
}

Expected<PodGroup> NoPluginJobPlugins::makePodGroup(const Job& job) { return buildPodGroup(job, priorityClasses_); }

Status NoPluginJobPlugins::onJobAdd(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobUpdate(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobDelete(Job&, ResourceClient&) { return Status::ok(); }
void NoPluginJobPlugins::updateStatus(const Job&, JobStatus&) {}

}  // namespace jobhost
