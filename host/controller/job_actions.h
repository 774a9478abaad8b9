// The primitives the state machine runs (spec §5): syncJob (create/delete pods, count, write
// status), killJob (full kill) and killTarget (task, pod or partition kill).
#pragma once

#include <functional>

#include "host/cluster/backend.h"
#include "host/controller/clock.h"
#include "host/controller/job_cache.h"
#include "host/controller/job_plugins.h"
#include "host/controller/policies.h"

namespace jobhost {

/// Volcano's UpdateStatusFn: edits the status and returns true when the phase changed.
using UpdateStatusFn = std::function<bool(JobStatus&)>;

/// Pod phases a full kill keeps: None = {}, Soft = {Succeeded, Failed}.
enum class RetainPhases { None, Soft };

class JobActions {
 public:
  /// Called after every status write with the phase before it (echo, TTL).
  using StatusWritten = std::function<void(JobEntry&, JobPhase previous)>;

  /// `forwardingQueues`: the queues with spec.extendClusters (syncJob step 2).
  JobActions(ClusterBackend& backend, JobPlugins& plugins, Clock& clock, StatusWritten written,
             std::vector<std::string> forwardingQueues = {})
      : backend_(backend),
        plugins_(plugins),
        clock_(clock),
        written_(std::move(written)),
        forwardingQueues_(std::move(forwardingQueues)) {}

  /// The caller holds entry.mutex and entry.job is set.
  Status syncJob(JobEntry& entry, const UpdateStatusFn& fn);
  Status killJob(JobEntry& entry, RetainPhases retain, const UpdateStatusFn& fn);
  Status killTarget(JobEntry& entry, const KillTarget& target, const UpdateStatusFn& fn);

 private:
  Status killPods(JobEntry& entry, RetainPhases retain, const KillTarget* target, const UpdateStatusFn& fn);
  Status initiateJob(JobEntry& entry);
  Status initOnJobUpdate(JobEntry& entry);
  Status createJobIO(JobEntry& entry);
  Status createOrUpdatePodGroup(JobEntry& entry);
  Status deletePodGroup(JobEntry& entry);
  bool dependsOnSatisfied(const JobEntry& entry, size_t taskIndex) const;
  bool markForwarding(Job& job) const;
  void commit(JobEntry& entry, JobPhase previous);

  ClusterBackend& backend_;
  JobPlugins& plugins_;
  Clock& clock_;
  StatusWritten written_;
  std::vector<std::string> forwardingQueues_;
};

/// Removes conditions with the same phase and appends {phase, time} (appendJobCondition).
void appendJobCondition(JobStatus& status, JobPhase phase, TimeMs at);

}  // namespace jobhost
