// applyPolicies exactly as Volcano's job_controller_util.go: explicit action, internal events,
// stale job UID, stale version, task policies (shadowing job policies), job policies, SyncJob.
#include "host/controller/policies.h"


namespace jobhost {
namespace {

/// One policy: a match sets `out` and returns true.
bool matchPolicy(const LifecyclePolicy& policy, const Request& req, PolicyDecision& out) {
  bool listed = !policy.events.empty() || !policy.event.empty();
  if (listed && !req.event.empty()) {
    bool hit = policy.event == req.event || policy.event == events::Any;
    for (const auto& e : policy.events) hit = hit || e == req.event || e == events::Any;
    if (hit && !(req.event == events::PodPending && !policy.timeout)) {
      out = {policy.action, policy.timeout ? policy.timeout->ms : 0};
      return true;
    }
  }
  if (policy.exitCode && *policy.exitCode == req.exitCode) {
    out = {policy.action, policy.timeout ? policy.timeout->ms : 0};
    return true;
  }
  return false;
}

/// GetStateAction: the action and, for RestartTask/Pod/Partition, its kill target.
StateAction stateActionFor(std::string_view action, const std::string& task, const std::string& pod,
                           const std::string& partition) {
  StateAction out;
  out.action = action;
  switch (actionTypeOf(action)) {
    case ActionType::Task:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Task, task, "", ""};
      break;
    case ActionType::Pod:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Pod, task, pod, ""};
      break;
    case ActionType::Partition:
      out.hasTarget = true;
      out.target = {KillTarget::Type::Partition, task, pod, partition};
      break;
    case ActionType::Job:
      break;
  }
  return out;
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

PolicyDecision decidePolicy(const Job& job, const Request& req) {
  const PolicyDecision sync{actions::SyncJob, 0};
  if (!req.action.empty()) return {req.action, 0};
  if (req.event == events::OutOfSync || req.event == events::CommandIssued || req.event == events::PodRunning)
    return sync;
  if (!req.jobUid.empty() && req.jobUid != job.metadata.uid) return sync;
  if (req.jobVersion < job.status.version) return sync;

  PolicyDecision out;
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
  return sync;
}

DelayAction delayActionOf(const Request& req, const PolicyDecision& decision) {
  DelayAction out;
  out.jobKey = req.jobKey();
  out.event = req.event;
  out.taskName = req.taskName;
  out.podName = req.podName;
  out.podUid = req.podUid;
  out.partition = req.partitionId;
  out.action = decision.action;
  out.delayMs = decision.delayMs;
  return out;
}

DelayAction applyPolicies(const Job& job, const Request& req) { return delayActionOf(req, decidePolicy(job, req)); }

StateAction stateActionOf(const DelayAction& act) {
  return stateActionFor(act.action, act.taskName, act.podName, act.partition);
}

StateAction stateActionOf(const Request& req, std::string_view action) {
  return stateActionFor(action, req.taskName, req.podName, req.partitionId);
}

}  // namespace jobhost
