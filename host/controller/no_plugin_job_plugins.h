// NoPluginJobPlugins: the JobPlugins used when no plugin is configured and by tests. Builds pods
// and the PodGroup with the §6.1/§6.2 names, labels, annotations and owner the controller needs;
// hooks do nothing. Kept minimal and separate so the full builder (host/workload) can replace it.
#pragma once

#include "host/controller/job_plugins.h"

namespace jobhost {

class NoPluginJobPlugins : public JobPlugins {
 public:
  Status prepare(const Job& job) override;
  void forget(const std::string& jobUid) override;
  Expected<Pod> makePod(const Job& job, size_t taskIndex, int32_t podIndex) override;
  Expected<PodGroup> makePodGroup(const Job& job) override;
  Status onJobAdd(Job& job, ResourceClient& client) override;
  Status onJobUpdate(Job& job, ResourceClient& client) override;
  Status onJobDelete(Job& job, ResourceClient& client) override;
  void updateStatus(const Job& job, JobStatus& status) override;
};

}  // namespace jobhost
