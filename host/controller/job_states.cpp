// One function per state, each a transcription of Volcano's pkg/controllers/job/state/*.go,
// including the Running completion logic and restartingUpdateStatus.
#include "host/controller/job_states.h"

namespace jobhost {
namespace {

int32_t totalTasks(const JobSpec& spec) {
  int32_t n = 0;
  for (const auto& t : spec.tasks) n += t.replicas;
  return n;
}

int32_t totalTaskMinAvailable(const JobSpec& spec) {
  int32_t n = 0;
  for (const auto& t : spec.tasks) n += t.minAvailable ? *t.minAvailable : t.replicas;
  return n;
}

UpdateStatusFn moveTo(JobPhase phase, bool countRetry) {
  return [phase, countRetry](JobStatus& s) {
    if (countRetry) ++s.retryCount;
    s.state.phase = phase;
    return true;
  };
}

/// Completing, Terminating, Aborting: done once no pod is alive.
UpdateStatusFn whenNoLivePods(JobPhase phase) {
  return [phase](JobStatus& s) {
    if (s.terminating != 0 || s.pending != 0 || s.running != 0) return false;
    s.state.phase = phase;
    return true;
  };
}

UpdateStatusFn restartingUpdateStatus(const JobSpec& spec) {
  return [&spec](JobStatus& s) {
    if (s.retryCount >= spec.maxRetry) {
      s.state.phase = JobPhase::Failed;
      return true;
    }
    if (totalTasks(spec) - s.terminating >= s.minAvailable) {
      s.state.phase = JobPhase::Pending;
      return true;
    }
    return false;
  };
}

UpdateStatusFn pendingUpdateStatus(const JobSpec& spec) {
  return [&spec](JobStatus& s) {
    if (spec.minAvailable <= s.running + s.succeeded + s.failed) {
      s.state.phase = JobPhase::Running;
      return true;
    }
    return false;
  };
}

UpdateStatusFn runningUpdateStatus(const JobSpec& spec) {
  return [&spec](JobStatus& s) {
    int32_t replicas = totalTasks(spec);
    if (replicas == 0) return false;
    if (spec.minSuccess && s.succeeded >= *spec.minSuccess) {
      s.state.phase = JobPhase::Completed;
      return true;
    }
    if (s.succeeded + s.failed == replicas) {
      if (spec.minAvailable >= totalTaskMinAvailable(spec)) {
        for (const auto& task : spec.tasks) {
          if (!task.minAvailable) continue;
          auto it = s.taskStatusCount.find(task.name);
          if (it == s.taskStatusCount.end()) continue;
          auto succeeded = it->second.phase.find(PodPhase::Succeeded);
          if ((succeeded == it->second.phase.end() ? 0 : succeeded->second) < *task.minAvailable) {
            s.state.phase = JobPhase::Failed;
            return true;
          }
        }
      }
      if (spec.minSuccess && s.succeeded < *spec.minSuccess)
        s.state.phase = JobPhase::Failed;
      else if (s.succeeded >= spec.minAvailable)
        s.state.phase = JobPhase::Completed;
      else
        s.state.phase = JobPhase::Failed;
      return true;
    }
    if (s.pending > replicas - spec.minAvailable) {
      s.state.phase = JobPhase::Pending;
      return true;
    }
    return false;
  };
}

bool isTargeted(const std::string& a) {
  return a == actions::RestartTask || a == actions::RestartPod || a == actions::RestartPartition;
}

Status pendingOrRunning(JobActions& x, JobEntry& e, const StateAction& a, bool running) {
  const std::string& act = a.action;
  if (act == actions::RestartJob) return x.killJob(e, RetainPhases::None, moveTo(JobPhase::Restarting, true));
  if (isTargeted(act)) return x.killTarget(e, a.target, moveTo(JobPhase::Restarting, true));
  if (act == actions::AbortJob) return x.killJob(e, RetainPhases::Soft, moveTo(JobPhase::Aborting, false));
  if (act == actions::CompleteJob) return x.killJob(e, RetainPhases::Soft, moveTo(JobPhase::Completing, false));
  if (act == actions::TerminateJob) return x.killJob(e, RetainPhases::Soft, moveTo(JobPhase::Terminating, false));
  const JobSpec& spec = e.job->spec;
  return x.syncJob(e, running ? runningUpdateStatus(spec) : pendingUpdateStatus(spec));
}

}  // namespace

Status executeStateAction(JobActions& x, JobEntry& e, JobPhase phase, const StateAction& a) {
  const std::string& act = a.action;
  const JobSpec& spec = e.job->spec;
  switch (phase) {
    case JobPhase::Running:
      return pendingOrRunning(x, e, a, true);
    case JobPhase::Restarting:
      if (act == actions::SyncJob) return x.syncJob(e, restartingUpdateStatus(spec));
      if (isTargeted(act)) return x.killTarget(e, a.target, restartingUpdateStatus(spec));
      return x.killJob(e, RetainPhases::None, restartingUpdateStatus(spec));
    case JobPhase::Completing:
      return x.killJob(e, RetainPhases::Soft, whenNoLivePods(JobPhase::Completed));
    case JobPhase::Terminating:
      return x.killJob(e, RetainPhases::Soft, whenNoLivePods(JobPhase::Terminated));
    case JobPhase::Aborting:
      if (act == actions::ResumeJob) return x.killJob(e, RetainPhases::Soft, moveTo(JobPhase::Restarting, true));
      return x.killJob(e, RetainPhases::Soft, whenNoLivePods(JobPhase::Aborted));
    case JobPhase::Aborted:
      if (act == actions::ResumeJob) return x.killJob(e, RetainPhases::Soft, moveTo(JobPhase::Restarting, true));
      return x.killJob(e, RetainPhases::Soft, nullptr);
    case JobPhase::Completed:
    case JobPhase::Terminated:
    case JobPhase::Failed:
      return x.killJob(e, RetainPhases::Soft, nullptr);
    case JobPhase::None:
    case JobPhase::Pending:
      return pendingOrRunning(x, e, a, false);
  }
  return pendingOrRunning(x, e, a, false);
}

}  // namespace jobhost
