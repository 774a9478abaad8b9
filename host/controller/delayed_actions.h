// DelayedActions: Volcano's delayActionMap[jobKey][podName] (spec §3.2-3.3): adding a delayed
// action, cancelling pod-event ones (with the #5507 UID fix) and cleanupDelayActions by type.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "host/controller/clock.h"
#include "host/controller/policies.h"
#include "host/controller/request.h"

namespace jobhost {

class DelayedActions {
 public:
  /// One waiting action. `origin` is the request that produced it (requeued on failure).
  struct Entry {
    Entry(DelayAction a, Request o) : act(std::move(a)), origin(std::move(o)) {}
    const DelayAction act;
    const Request origin;
    TimerHandle timer;                 // written once, under the registry's lock
    std::atomic<bool> cancelled{false};  // checked by the worker before running the action
    void cancel() {
      cancelled.store(true);
      timer.cancel();
    }
  };
  using Arm = std::function<TimerHandle(std::shared_ptr<Entry>)>;

  /// AddDelayActionForJob: keeps an existing entry for the same pod with the same action;
  /// otherwise stores the new one (an overwritten entry's timer is not cancelled, as in
  /// Volcano) and arms its timer with `arm`. Returns false when the existing entry was kept.
  bool add(const DelayAction& act, const Request& origin, const Arm& arm);

  /// CleanPodDelayActionsIfNeed (§3.3) for PodRunning/PodFailed/PodEvicted requests.
  /// Deliberate fix (Volcano #5507): a PodFailed/PodEvicted entry is cancelled by PodRunning
  /// only when the request's pod UID equals the entry's.
  void cancelForPodEvent(const Request& req);

  /// cleanupDelayActions (§3.3): cancels and removes the job's entries of the same action type
  /// (Task: same task; Pod: same pod; Partition: same partition).
  void cleanup(const DelayAction& current);

  /// Cancels everything of a job (the job was deleted).
  void dropJob(const std::string& jobKey);

  /// Number of stored entries of a job (tests).
  size_t count(const std::string& jobKey) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::unordered_map<std::string, std::shared_ptr<Entry>>> byJob_;
};

}  // namespace jobhost
