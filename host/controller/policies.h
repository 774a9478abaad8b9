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

/// The rules of spec §3, first match wins.
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

}  // namespace jobhost
