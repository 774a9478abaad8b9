// killPods (spec §5.1), shared by killJob (full kill: Version bump, retain phases with the
// last-retry rule, PodGroup deleted) and killTarget (task, pod or partition; PodGroup kept).
#include <algorithm>
#include <vector>

#include "host/controller/abandon_scope.h"
#include "host/controller/backend_resource_client.h"
#include "host/controller/job_actions.h"

namespace jobhost {
namespace {

bool retained(RetainPhases retain, PodPhase phase) {
  return retain == RetainPhases::Soft && (phase == PodPhase::Succeeded || phase == PodPhase::Failed);
}

void countPhase(JobStatus& s, const PodRecord& r) {
  switch (r.phase) {
    case PodPhase::Pending: ++s.pending; break;
    case PodPhase::Running: ++s.running; break;
    case PodPhase::Succeeded: ++s.succeeded; break;
    case PodPhase::Failed: ++s.failed; break;
    case PodPhase::Unknown: ++s.unknown; break;
  }
  ++s.taskStatusCount[r.task].phase[r.phase];
}

}  // namespace

Status JobActions::killJob(JobEntry& entry, RetainPhases retain, const UpdateStatusFn& fn) {
  return killPods(entry, retain, nullptr, fn);
}

Status JobActions::killTarget(JobEntry& entry, const KillTarget& target, const UpdateStatusFn& fn) {
  return killPods(entry, RetainPhases::None, &target, fn);
}

Status JobActions::killPods(JobEntry& entry, RetainPhases retain, const KillTarget* target, const UpdateStatusFn& fn) {
  Job& job = *entry.job;
  if (job.metadata.deletionTimestamp) return Status::ok();
  const std::string& ns = job.metadata.namespace_;

  JobStatus next = job.status;
  next.pending = next.running = next.succeeded = next.failed = next.terminating = next.unknown = 0;
  next.taskStatusCount.clear();
  std::vector<std::string> toKill;
  size_t total = 0;
  if (target) {
    switch (target->type) {
      case KillTarget::Type::Task:
        for (const auto& [name, record] : entry.pods())
          if (record.task == target->taskName) toKill.push_back(name);
        break;
      case KillTarget::Type::Pod:
        if (const PodRecord* r = entry.findPod(target->podName); r && r->task == target->taskName)
          toKill.push_back(target->podName);
        break;
      case KillTarget::Type::Partition: {
        const auto* names = entry.partitionPods(target->taskName, target->partition);
        if (!names) return Status::ok();
        for (const auto& name : *names)
          if (const PodRecord* r = entry.findPod(name); r && r->task == target->taskName) toKill.push_back(name);
        if (toKill.empty()) return Status::ok();
        break;
      }
    }
    total = toKill.size();
  } else {
    ++next.version;
    bool lastRetry = job.status.retryCount >= job.spec.maxRetry - 1;
    RetainPhases keep = lastRetry ? RetainPhases::Soft : retain;
    next.terminating = entry.allTerminating();
    int32_t killable = 0;
    for (size_t p = 0; p < kPodPhaseCount; ++p)
      if (!retained(keep, static_cast<PodPhase>(p))) killable += entry.allByPhase()[p];
    if (killable > 0)
      for (const auto& [name, record] : entry.pods())
        if (!record.terminating && !retained(keep, record.phase)) toKill.push_back(name);
    total = entry.pods().size();
  }
  std::sort(toKill.begin(), toKill.end());

  std::vector<std::string> errors;
  std::vector<std::string> marked;
  marked.reserve(toKill.size());
  for (auto& name : toKill) {
    ClusterStatus st = backend_.annotatePod(ns, name, std::string(keys::OutOfSyncMarker), "true");
    if (st.ok() || st.code == ClusterErrc::NotFound)
      marked.push_back(std::move(name));
    else
      errors.push_back(st.message);
  }
  for (const auto& name : marked) {
    const PodRecord* record = entry.findPod(name);
    if (record->terminating) {
      ++next.terminating;
      continue;
    }
    ClusterStatus st = backend_.deletePod(ns, name);
    if (st.ok() || st.code == ClusterErrc::NotFound) {
      ++next.terminating;
      continue;
    }
    errors.push_back(st.message);
    countPhase(next, *record);
  }
  if (!errors.empty()) {
    std::string message = "failed to kill " + std::to_string(errors.size()) + " pods of " + std::to_string(total);
    for (const auto& e : errors) message += "; " + e;
    return Status::error(message);
  }

  if (fn && fn(next)) {
    TimeMs now = clock_.now();
    next.state.lastTransitionTime = now;
    appendJobCondition(next, next.state.phase, now);
  }
  next.runningDurationMs = next.state.lastTransitionTime.value_or(0) - job.metadata.creationTimestamp.value_or(0);

  JobStatus saved = std::move(job.status);
  job.status = std::move(next);
  BackendResourceClient client(backend_, job);
  {
    UndoOnAbandon undo([&job, &saved] { job.status = saved; });
    if (Status st = withErrorPrefix("PluginError: ", [&] { return plugins_.onJobDelete(job, client); }); !st) {
      job.status = std::move(saved);
      return st;
    }
  }
  commit(entry, saved.state.phase);
  return target ? Status::ok() : deletePodGroup(entry);
}

Status JobActions::deletePodGroup(JobEntry& entry) {
  const Job& job = *entry.job;
  const std::string& ns = job.metadata.namespace_;
  auto& view = entry.podGroup;
  entry.podGroupWrittenGeneration = -1;
  if (view.known && !view.phase) return Status::ok();  // deleted by an earlier kill (Volcano's delete: NotFound)
  if (!view.known) {
    view.name = entry.uidPodGroupName();
    if (!backend_.podGroupPhase(ns, view.name) && backend_.podGroupPhase(ns, job.metadata.name)) view.name = job.metadata.name;
  }
  ClusterStatus st = backend_.deletePodGroup(ns, view.name);
  if (!st.ok() && st.code != ClusterErrc::NotFound) {
    view.known = false;
    return Status::error(st.message);
  }
  view.known = true;  // known to be gone: a new one takes the <job>-<uid> name, even after a legacy one
  view.name = entry.uidPodGroupName();
  view.phase.reset();
  return Status::ok();
}

}  // namespace jobhost
