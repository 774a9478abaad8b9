// NoPluginJobPlugins: the JobPlugins used when no plugin is configured and by tests: pods and the
// PodGroup straight from the workload builders (spec §6.1-6.3), hooks that do nothing.
#pragma once

#include "host/controller/job_plugins.h"
#include "host/workload/min_resources.h"

namespace jobhost {

class NoPluginJobPlugins : public JobPlugins {
 public:
  explicit NoPluginJobPlugins(PriorityClassValues priorityClasses = {}) : priorityClasses_(std::move(priorityClasses)) {}

  Status prepare(const Job& job) override;
  void forget(const std::string& jobUid) override;
  Expected<std::vector<Pod>> makePods(const Job& job, const std::vector<PodSlot>& slots, bool jobForwarding) override;
  Expected<PodGroup> makePodGroup(const Job& job) override;
  Status onJobAdd(Job& job, ResourceClient& client) override;
  Status onJobUpdate(Job& job, ResourceClient& client) override;
  Status onJobDelete(Job& job, ResourceClient& client) override;
  void updateStatus(const Job& job, JobStatus& status) override;

 private:
  PriorityClassValues priorityClasses_;
};

}  // namespace jobhost
