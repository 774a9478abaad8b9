// JobPlugins: everything the controller needs from the plugin side for a job — pod and PodGroup
// construction (spec §6.1-6.3 plus the pipeline's pod sets), JobHooks, and the Status plugin.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "host/workload/pod.h"
#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost {

/// Implemented by host/plugin (real plugins from .so files) and by test fakes. Calls for one job
/// come from that job's worker only; calls for different jobs may be concurrent.
class JobPlugins {
 public:
  virtual ~JobPlugins() = default;

  /// Runs the pipeline (MLPolicy -> PodGroupPolicy -> PodNetwork -> ComponentBuild) for the job's
  /// current spec and keeps the result until forget(). Called when a job is added and when its
  /// spec changes. An error means the job cannot be built (reason names the plugin).
  virtual Status prepare(const Job& job) = 0;
  /// Drops what prepare() kept for the job with this UID.
  virtual void forget(const std::string& jobUid) = 0;

  /// The pods of `slots`, in order, each as createJobPod builds it (§6.1) from the prepared pod
  /// set (marked job-forwarding=true when `jobForwarding`), after every active plugin's onPodCreate
  /// ran on it (pod by pod, plugins in config order; one deadline guard for the whole batch). The
  /// first error aborts the batch (names the plugin).
  virtual Expected<std::vector<Pod>> makePods(const Job& job, const std::vector<PodSlot>& slots,
                                              bool jobForwarding) = 0;
  /// makePods of one slot, not forwarded.
  Expected<Pod> makePod(const Job& job, size_t taskIndex, int32_t podIndex) {
    auto pods = makePods(job, {PodSlot{taskIndex, podIndex}}, false);
    if (!pods) return Expected<Pod>::failure(pods.error());
    return std::move(pods->front());
  }
  /// The job's PodGroup (§6.2, minResources §6.3) after PodGroupPolicy plugins.
  virtual Expected<PodGroup> makePodGroup(const Job& job) = 0;

  /// JobHooks, every active plugin in config order (§7.1). Hooks may change
  /// job.status.controlledResources and create/delete objects through `client`.
  virtual Status onJobAdd(Job& job, ResourceClient& client) = 0;
  virtual Status onJobUpdate(Job& job, ResourceClient& client) = 0;
  virtual Status onJobDelete(Job& job, ResourceClient& client) = 0;

  /// The Status plugin, if any, after a sync. Errors are logged; the status is then unchanged.
  virtual void updateStatus(const Job& job, JobStatus& status) = 0;

  /// Runs `work(arg)`, a batch of request processing whose hook calls (JobHooks, the pipeline)
  /// then run inline on the batch's thread. Returns ok once it returned. When a plugin call in it
  /// passes its plugin's deadline, the call is abandoned (its thread never comes back) and the
  /// error is `plugin "NAME" failed in WHERE: did not return within ...`: the caller then owns
  /// what the batch was doing. Default: runs `work` on the calling thread.
  virtual Status runAbandonable(void (*work)(void*), void* arg) {
    work(arg);
    return Status::ok();
  }
};

}  // namespace jobhost
