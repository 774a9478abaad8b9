// DelayedActions: the map is guarded by one mutex; timers are armed through the caller's
// function so the registry stays independent of workers and clocks.
#include "host/controller/delayed_actions.h"

namespace jobhost {

bool DelayedActions::add(const DelayAction& act, const Request& origin, const Arm& arm) {
  auto entry = std::make_shared<Entry>(act, origin);
  std::lock_guard lock(mutex_);
  auto& slots = byJob_[act.jobKey];
  auto it = slots.find(origin.podName);
  if (it != slots.end() && it->second->act.action == act.action) return false;
  slots[origin.podName] = entry;
  entry->timer = arm(entry);
  return true;
}

void DelayedActions::cancelForPodEvent(const Request& req) {
  bool podEvent = req.event == events::PodRunning || req.event == events::PodFailed || req.event == events::PodEvicted;
  if (!podEvent) return;
  std::lock_guard lock(mutex_);
  auto job = byJob_.find(req.jobKey());
  if (job == byJob_.end()) return;
  auto it = job->second.find(req.podName);
  if (it == job->second.end()) return;
  const DelayAction& act = it->second->act;
  bool cancel = false;
  if (act.event == events::PodPending) cancel = req.podUid == act.podUid;
  if ((act.event == events::PodFailed || act.event == events::PodEvicted) && req.event == events::PodRunning)
    cancel = req.podUid == act.podUid;  // #5507: Volcano cancels without comparing UIDs
  if (!cancel) return;
  it->second->cancel();
  job->second.erase(it);
}

void DelayedActions::cleanup(const DelayAction& current) {
  ActionType type = actionTypeOf(current.action);
  std::lock_guard lock(mutex_);
  auto job = byJob_.find(current.jobKey);
  if (job == byJob_.end()) return;
  for (auto it = job->second.begin(); it != job->second.end();) {
    const DelayAction& act = it->second->act;
    bool same = actionTypeOf(act.action) == type;
    if (same && type == ActionType::Task) same = act.taskName == current.taskName;
    if (same && type == ActionType::Pod) same = act.podName == current.podName;
    if (same && type == ActionType::Partition) same = act.partition == current.partition;
    if (same) {
      it->second->cancel();
      it = job->second.erase(it);
    } else {
      ++it;
    }
  }
}

void DelayedActions::dropJob(const std::string& jobKey) {
  std::lock_guard lock(mutex_);
  auto job = byJob_.find(jobKey);
  if (job == byJob_.end()) return;
  for (auto& [pod, entry] : job->second) entry->cancel();
  byJob_.erase(job);
}

size_t DelayedActions::count(const std::string& jobKey) const {
  std::lock_guard lock(mutex_);
  auto job = byJob_.find(jobKey);
  return job == byJob_.end() ? 0 : job->second.size();
}

}  // namespace jobhost
