// applyPolicies (spec §3): which action a request leads to and after what delay; action types
// (§3.1) and the state-machine action with its kill target (GetStateAction, §2).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "host/controller/request.h"
#include "jobhost/job.h"

namespace jobhost {

/// Volcano's delayAction: the outcome of applyPolicies, kept while a delayed action waits.
struct DelayAction {
  std::string jobKey;
  std::string jobUid;  // of the job it was decided for (set when delayed): not a job created again under its name
  std::string event;
  std::string taskName;
  std::string podName;
  std::string podUid;
  std::string partition;
  std::string action;
  int64_t delayMs = 0;
};

enum class ActionType { Job, Task, Pod, Partition };
ActionType actionTypeOf(std::string_view action);

/// SyncJob, EnqueueJob, SyncQueue, OpenQueue, CloseQueue.
bool isInternalAction(std::string_view action);

/// What applyPolicies decides: the action (a view of the request, the job's policy or a constant:
/// valid while both live) and its delay.
struct PolicyDecision {
  std::string_view action;
  int64_t delayMs = 0;
};

/// The rules of spec §3, first match wins.
PolicyDecision decidePolicy(const Job& job, const Request& req);
/// The delayAction record of a decision for `req`.
DelayAction delayActionOf(const Request& req, const PolicyDecision& decision);
/// delayActionOf(req, decidePolicy(job, req)).
DelayAction applyPolicies(const Job& job, const Request& req);

struct KillTarget {
  enum class Type { Task, Pod, Partition };
  Type type = Type::Task;
  std::string taskName;
  std::string podName;
  std::string partition;
};

/// What a state executes: the action and, for RestartTask/Pod/Partition, the kill target.
struct StateAction {
  std::string action;
  bool hasTarget = false;
  KillTarget target;
};

StateAction stateActionOf(const DelayAction& act);
/// The same for a request's decided action, without building the delayAction record.
StateAction stateActionOf(const Request& req, std::string_view action);

}  // namespace jobhost
