// applyPolicies exactly as Volcano's job_controller_util.go: explicit action, internal events,
// stale job UID, stale version, task policies (shadowing job policies), job policies, SyncJob.
#include "host/controller/policies.h"


namespace jobhost {
namespace {

/// One policy: a match sets `out` and returns true.
bool matchPolicy(const LifecyclePolicy& policy, const Request& req, DelayAction& out) {
  bool listed = !policy.events.empty() || !policy.event.empty();
  if (listed && !req.event.empty()) {
    bool hit = policy.event == req.event || policy.event == events::Any;
    for (const auto& e : policy.events) hit = hit || e == req.event || e == events::Any;
    if (hit && !(req.event == events::PodPending && !policy.timeout)) {
      out.action = policy.action;
      out.delayMs = policy.timeout ? policy.timeout->ms : 0;
      return true;
    }
  }
  if (policy.exitCode && *policy.exitCode == req.exitCode) {
    out.action = policy.action;
    out.delayMs = policy.timeout ? policy.timeout->ms : 0;
    return true;
  }
  return false;
}

}  // namespace

ActionType actionTypeOf(std::string_view action) {
  if (action == actions::RestartTask) return ActionType::Task;
  if (action == actions::RestartPod) return ActionType::Pod;
  if (action == actions::RestartPartition) return ActionType::Partition;
  return ActionType::Job;
}

bool isInternalAction(std::string_view action) {
  return action == actions::SyncJob || action == actions::EnqueueJob || action == "SyncQueue" ||
         action == "OpenQueue" || action == "CloseQueue";
}

DelayAction applyPolicies(const Job& job, const Request& req) {
  DelayAction out;
  out.jobKey = req.jobKey();
  out.event = req.event;
  out.taskName = req.taskName;
  out.podName = req.podName;
  out.podUid = req.podUid;
  out.partition = req.partitionId;
  out.action = std::string(actions::SyncJob);

  if (!req.action.empty()) {
    out.action = req.action;
    return out;
  }
  if (req.event == events::OutOfSync || req.event == events::CommandIssued || req.event == events::PodRunning)
    return out;
  if (!req.jobUid.empty() && req.jobUid != job.metadata.uid) return out;
  if (req.jobVersion < job.status.version) return out;

  if (!req.taskName.empty()) {
    for (const auto& task : job.spec.tasks) {
      if (task.name != req.taskName) continue;
      for (const auto& policy : task.policies)
        if (matchPolicy(policy, req, out)) return out;
      break;
    }
  }
  for (const auto& policy : job.spec.policies)
    if (matchPolicy(policy, req, out)) return out;
  out.action = std::string(actions::SyncJob);
  out.delayMs = 0;
  return out;
}

StateAction stateActionOf(const DelayAction& act) {
  StateAction out;
  out.action = act.action;
  switch (actionTypeOf(act.action)) {
    case ActionType::Task:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Task, act.taskName, "", ""};
      break;
    case ActionType::Pod:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Pod, act.taskName, act.podName, ""};
      break;
    case ActionType::Partition:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Partition, act.taskName, act.podName, act.partition};
      break;
    case ActionType::Job:
      break;
  }
  return out;
}

}  // namespace jobhost
